"""Every common chapter format opens, its pages in order, each page byte for byte.

The archives are generated here: ZIP and 7z variants with 7-Zip (Debian's
7zip), Zstandard ZIPs by hand. RAR cannot be written with free tools, so the
RAR cases use Komga's small sample archives (see builders.FIXTURES).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from manga_app.catalogue.archives import ArchiveError, Limits, open_chapter

from .builders import FIXTURES, distinct_pages, write_zstd_zip

ARCHIVES = FIXTURES / "archives"
SEVEN_ZIP = shutil.which("7zz") or shutil.which("7z")


def _pages(folder: Path, count: int = 3) -> dict[str, bytes]:
    pages = {f"{i:03d}.png": data for i, data in enumerate(distinct_pages(count, seed=7), 1)}
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in pages.items():
        (folder / name).write_bytes(data)
    return pages


def seven_zip(target: Path, pages_dir: Path, *options: str) -> Path:
    assert SEVEN_ZIP, "7-Zip is missing: run scripts/ensure_system_packages.sh --test"
    names = sorted(p.name for p in pages_dir.iterdir())
    subprocess.run([SEVEN_ZIP, "a", "-bd", *options, str(target), *names],
                   cwd=pages_dir, check=True, capture_output=True)  # fmt: skip
    return target


def _read_all(path: Path, limits: Limits = Limits()) -> dict[str, bytes]:
    with open_chapter(path, "archive", limits) as source:
        return {name: source.read(name) for name in source.pages}


@pytest.mark.parametrize("method", ["Deflate", "Deflate64", "PPMd", "BZip2", "LZMA", "XZ"])
def test_zip_chapters_open_in_every_common_method(tmp_path: Path, method: str):
    pages = _pages(tmp_path / "pages")
    archive = seven_zip(tmp_path / f"c-{method}.cbz", tmp_path / "pages", "-tzip", f"-mm={method}")
    assert _read_all(archive) == pages


def test_zstandard_zip_chapters_open(tmp_path: Path):
    pages = distinct_pages(3, seed=2)
    archive = write_zstd_zip(tmp_path / "z.cbz", {f"{i}.png": p for i, p in enumerate(pages)})
    assert list(_read_all(archive).values()) == pages


@pytest.mark.parametrize("method", ["LZMA", "LZMA2", "PPMd", "BZip2", "Deflate"])
def test_7z_chapters_open_in_every_common_method(tmp_path: Path, method: str):
    pages = _pages(tmp_path / "pages")
    archive = seven_zip(tmp_path / f"c-{method}.cb7", tmp_path / "pages", "-t7z", f"-m0={method}")
    assert _read_all(archive) == pages


def test_solid_7z_with_extras_opens_and_names_what_is_not_a_page(tmp_path: Path):
    pages = _pages(tmp_path / "pages")
    (tmp_path / "pages" / "notes.txt").write_text("scanned by")
    archive = seven_zip(tmp_path / "c.7z", tmp_path / "pages", "-t7z", "-ms=on")
    with open_chapter(archive, "archive") as source:
        assert source.pages == list(pages) and source.skipped == ["notes.txt"]


@pytest.mark.parametrize(
    ("name", "count"),
    [("rar4.rar", 3), ("rar4-solid.rar", 3), ("rar5.rar", 1), ("rar5-solid.rar", 3)],
)
def test_rar4_rar5_and_solid_rar_chapters_open(name: str, count: int):
    pages = _read_all(ARCHIVES / name)
    assert len(pages) == count
    assert all(data.startswith(b"\x89PNG") and len(data) == 3108 for data in pages.values())


@pytest.mark.parametrize(
    "name", ["rar4-encrypted.rar", "rar5-encrypted.rar", "7zip-encrypted.7z", "zip-encrypted.zip"]
)
def test_encrypted_archives_are_refused_as_encrypted(name: str):
    with pytest.raises(ArchiveError, match="encrypted"):
        _read_all(ARCHIVES / name)


@pytest.mark.parametrize("options", [("-t7z", "-pSECRET"), ("-t7z", "-pSECRET", "-mhe=on"),
                                     ("-tzip", "-pSECRET", "-mem=AES256")])  # fmt: skip
def test_generated_encrypted_archives_are_refused(tmp_path: Path, options: tuple[str, ...]):
    _pages(tmp_path / "pages")
    archive = seven_zip(tmp_path / "secret.arc", tmp_path / "pages", *options)
    with pytest.raises(ArchiveError, match="encrypted"):
        _read_all(archive)


def test_path_traversal_in_a_7z_refuses_the_whole_archive(tmp_path: Path):
    import libarchive

    archive = tmp_path / "evil.cb7"
    page = distinct_pages(1)[0]
    # libarchive writes entry names as given, '..' included (7-Zip would clean them)
    with libarchive.file_writer(str(archive), "7zip") as writer:
        writer.add_file_from_memory("001.png", len(page), page)
        writer.add_file_from_memory("../../evil.png", len(page), page)
    with pytest.raises(ArchiveError, match="unsafe entry name '../../evil.png'"):
        _read_all(archive)


@pytest.mark.parametrize(("fmt", "options"), [("7z", ("-t7z",)), ("zip", ("-tzip", "-mm=PPMd"))])
def test_a_bomb_entry_is_refused_by_its_real_size(tmp_path: Path, fmt: str, options):
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "001.png").write_bytes(bytes(3 * 1024 * 1024))  # compresses 1000:1
    archive = seven_zip(tmp_path / f"bomb.{fmt}", tmp_path / "pages", *options)
    with pytest.raises(ArchiveError, match="possible zip bomb"):
        _read_all(archive, Limits(max_entry_bytes=1024 * 1024))


def _rar4_with_entry_renamed(source: Path, target: Path, old: bytes, new: bytes) -> Path:
    """A copy of a RAR4 archive whose first entry is named `new` (same length
    as `old`), its header checksum made right again: no free tool writes RAR."""
    import struct
    import zlib

    assert len(old) == len(new)
    data = bytearray(source.read_bytes())
    start = data.index(b"\x74", 7 + 13) - 2  # the first file header (after marker and main headers)
    size = struct.unpack_from("<H", data, start + 5)[0]
    name = data.index(old, start, start + size)
    data[name : name + len(new)] = new
    struct.pack_into("<H", data, start, zlib.crc32(data[start + 2 : start + size]) & 0xFFFF)
    target.write_bytes(bytes(data))
    return target


@pytest.mark.parametrize("name", ["rar4.rar", "rar4-solid.rar"])
def test_path_traversal_in_a_rar_refuses_the_whole_archive(tmp_path: Path, name: str):
    evil = _rar4_with_entry_renamed(ARCHIVES / name, tmp_path / f"evil-{name}", b"komga-1.png", b"../evil.png")
    with pytest.raises(ArchiveError, match="unsafe entry name"):
        _read_all(evil)
    assert not (tmp_path.parent / "evil.png").exists()


@pytest.mark.parametrize("name", ["rar4.rar", "rar4-solid.rar", "rar5.rar", "rar5-solid.rar"])
def test_a_rar_entry_larger_than_the_limit_is_refused_by_its_real_size(name: str):
    # Komga's pages are 3108 bytes: under a 1 KiB limit each is a bomb, whichever reader opens the RAR.
    with pytest.raises(ArchiveError, match="possible zip bomb"):
        _read_all(ARCHIVES / name, Limits(max_entry_bytes=1024))
