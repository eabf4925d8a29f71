"""archives.py: safe reading of CBZ/ZIP archives and image folders, and refusal of bad ones."""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

import pytest
from PIL import Image

from manga_app.catalogue.archives import (
    ArchiveError,
    Limits,
    content_hash,
    open_chapter,
    source_stat,
)

from .builders import (
    FIXTURES,
    image_bytes,
    touch_later,
    write_cbz,
    write_folder,
    zip_bomb,
)

ARCHIVES = FIXTURES / "archives"


def test_pages_come_in_natural_order_and_entries_that_are_not_pages_are_listed(tmp_path: Path):
    # Given an archive whose entries are stored out of order, with metadata and junk beside the images
    names = [
        "10.png",
        "2.png",
        "1.png",
        "sub/003.jpg",
        "Thumbs.db",
        "__MACOSX/._1.png",
        ".hidden.png",
    ]
    write_cbz(tmp_path / "a.cbz", {n: image_bytes() for n in names}, comicinfo="<ComicInfo/>")
    # When it is opened
    with open_chapter(tmp_path / "a.cbz", "archive") as source:
        # Then only the images are pages, 2 before 10, and ComicInfo.xml is available
        assert source.pages == ["1.png", "2.png", "10.png", "sub/003.jpg"]
        assert source.comicinfo == b"<ComicInfo/>"
        assert source.read("2.png") == image_bytes()
        assert sorted(source.skipped) == [".hidden.png", "Thumbs.db", "__MACOSX/._1.png"]


def test_upper_case_extensions_are_pages_and_unsupported_images_refuse_the_chapter(
    tmp_path: Path,
):
    # Given the audit's archive: two pages we read, three formats we cannot, two more we read
    names = ["001.png", "002.bmp", "003.tif", "004.jpeg", "005.heic", "006.JPG"]
    archive = write_cbz(tmp_path / "a.cbz", {n: image_bytes() for n in names})
    # Then the whole chapter is refused, naming every entry that would have gone missing
    with pytest.raises(ArchiveError) as refused:
        with open_chapter(archive, "archive"):
            pass
    message = str(refused.value)
    assert "3 page image(s) in a format we cannot import: 002.bmp, 003.tif, 005.heic" in message
    assert "supported: JPEG, PNG, WebP, GIF, AVIF" in message
    # And without them, upper-case extensions are pages like any other
    archive = write_cbz(
        tmp_path / "b.cbz", {n: image_bytes() for n in ("001.png", "004.jpeg", "006.JPG", "a.TXT")}
    )
    with open_chapter(archive, "archive") as source:
        assert source.pages == ["001.png", "004.jpeg", "006.JPG"]
        assert source.skipped == ["a.TXT"]


@pytest.mark.parametrize(
    "extra",
    ["scan.tiff", "photo.HEIC", "p.heif", "p.jxl", "p.jp2", "layers.psd", "vector.svg"],
)
def test_every_image_format_we_cannot_convert_refuses_the_chapter(tmp_path: Path, extra: str):
    archive = write_cbz(tmp_path / "a.cbz", {"1.png": image_bytes(), extra: b"image bytes"})
    with pytest.raises(ArchiveError, match=f"cannot import: {re.escape(extra)}"):
        with open_chapter(archive, "archive"):
            pass


def test_folder_chapters_follow_the_same_rules(tmp_path: Path):
    folder = write_folder(
        tmp_path / "ch", {"1.png": image_bytes(), "2.JPEG": image_bytes(), "notes.txt": b"x"}
    )
    with open_chapter(folder, "folder") as source:
        assert (source.pages, source.skipped) == (["1.png", "2.JPEG"], ["notes.txt"])
    (folder / "3.bmp").write_bytes(b"x")
    with pytest.raises(ArchiveError, match="cannot import: 3.bmp"):
        with open_chapter(folder, "folder"):
            pass


def test_folder_pages_come_in_natural_order(tmp_path: Path):
    write_folder(
        tmp_path / "ch", {"p10.webp": b"a", "p2.gif": b"b", "p1.JPG": b"c", "info.txt": b"d"}
    )
    with open_chapter(tmp_path / "ch", "folder") as source:
        assert source.pages == ["p1.JPG", "p2.gif", "p10.webp"]


@pytest.mark.parametrize(
    "name",
    [
        "zip.zip",
        "zip-copy.zip",
        "zip-bzip2.zip",
        "zip-lzma.zip",
        "zip-deflate64.zip",
        "zip-ppmd.zip",
        "zip-as-epub.epub",
    ],
)
def test_komga_zip_samples_with_readable_entries_open(name: str):
    # These samples store their single PNG uncompressed, whatever the name says.
    with open_chapter(ARCHIVES / name, "archive") as source:
        assert source.pages == ["komga.png"]
        assert source.read("komga.png").startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "bad_name", ["../evil.png", "a/../../evil.png", "/etc/evil.png", "C:/evil.png", "..\\evil.png"]
)
def test_entry_names_that_escape_the_archive_refuse_the_whole_archive(
    tmp_path: Path, bad_name: str
):
    path = tmp_path / "a.cbz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("1.png", image_bytes())
        archive.writestr(zipfile.ZipInfo(bad_name), image_bytes())
    with pytest.raises(ArchiveError, match="unsafe entry name"):
        with open_chapter(path, "archive"):
            pass


def test_a_zip_bomb_entry_is_refused_by_its_real_size(tmp_path: Path):
    bomb = zip_bomb(tmp_path / "bomb.cbz")
    with pytest.raises(ArchiveError, match="possible zip bomb"):
        with open_chapter(bomb, "archive") as source:
            for name in source.pages:
                source.read(name)


def test_a_blank_uncompressed_page_is_a_page_not_a_zip_bomb(tmp_path: Path):
    # Given an all-white 2400x3600 PNG stored without compression (26 MB), zipped 1000:1
    out = io.BytesIO()
    Image.new("RGB", (2400, 3600), (255, 255, 255)).save(out, format="PNG", compress_level=0)
    archive = write_cbz(tmp_path / "a.cbz", {"1.png": out.getvalue(), "2.png": image_bytes()})
    # Then it reads as the page it is
    with open_chapter(archive, "archive") as source:
        assert source.read("1.png") == out.getvalue()


def test_total_size_and_entry_count_are_capped(tmp_path: Path):
    archive = write_cbz(tmp_path / "a.cbz", {f"{i}.png": image_bytes() for i in range(5)})
    with pytest.raises(ArchiveError, match="too many entries"):
        with open_chapter(archive, "archive", Limits(max_entries=4)):
            pass
    with pytest.raises(ArchiveError, match="possible zip bomb"):
        with open_chapter(
            archive, "archive", Limits(max_total_bytes=2 * len(image_bytes()))
        ) as source:
            for name in source.pages:
                source.read(name)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"just some text", "not a comic archive"),
        (b"PK\x03\x04" + b"\x00" * 40, "corrupt ZIP archive"),
    ],
)
def test_corrupt_files_are_refused_with_a_reason(tmp_path: Path, content: bytes, message: str):
    path = tmp_path / "bad.cbz"
    path.write_bytes(content)
    with pytest.raises(ArchiveError, match=message):
        with open_chapter(path, "archive"):
            pass


def test_the_content_hash_follows_the_bytes_and_ignores_the_mtime(tmp_path: Path):
    archive = write_cbz(tmp_path / "a.cbz", {"1.png": image_bytes()})
    first, stat = content_hash(archive, "archive"), source_stat(archive, "archive")
    assert len(first) == 64 and stat.size == archive.stat().st_size
    touch_later(archive)
    assert content_hash(archive, "archive") == first
    assert source_stat(archive, "archive").mtime_ns > stat.mtime_ns
    write_cbz(archive, {"1.png": image_bytes(color=(1, 2, 3))})
    assert content_hash(archive, "archive") != first


def test_a_folder_changes_its_stat_when_a_file_is_renamed(tmp_path: Path):
    folder = write_folder(tmp_path / "ch", {"1.png": image_bytes(), "2.png": image_bytes((1, 1, 1))})
    before, digest = source_stat(folder, "folder"), content_hash(folder, "folder")
    os.utime(folder, ns=(0, before.mtime_ns - 10**9))  # keep the folder's mtime out of the way
    (folder / "2.png").rename(folder / "3.png")
    assert source_stat(folder, "folder").mtime_ns != before.mtime_ns - 10**9
    assert content_hash(folder, "folder") != digest
