"""Archives read front to back (RAR, 7z, ZIP in methods zipfile lacks) through libarchive.

libarchive (via libarchive-c) reads RAR4, RAR5 (solid too), 7z (LZMA, LZMA2,
PPMd, BZip2, Deflate) and ZIP (PPMd, XZ, Zstandard...). Its archives are read
sequentially, so the pages and ComicInfo.xml are copied once, with bounded
writes, into a private temporary folder (the rest is never decompressed), and
pages are read back from there. Every entry name is checked first: one
traversal refuses the whole archive. Solid RAR4 archives, which Debian's
libarchive cannot read, go to The Unarchiver (unar.py).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import libarchive
from libarchive.exception import ArchiveError as LibarchiveError

from manga_app.catalogue.readers.base import (
    ArchiveError,
    ChapterSource,
    Limits,
    check_name,
    find_comicinfo,
    read_small_file,
    sort_entries,
)
from manga_app.catalogue.scanner import entry_kind

__all__ = ["open_extracted", "source_from_folder", "translate"]


@contextmanager
def open_extracted(path: Path, label: str, limits: Limits) -> Iterator[ChapterSource]:
    """A chapter read through libarchive; `label` names the format in messages ('RAR')."""
    folder = Path(tempfile.mkdtemp(prefix="manga-chapter-"))
    try:
        try:
            files = _extract(path, folder, limits)
        except LibarchiveError as exc:
            if label == "RAR" and "solid" in str(exc).lower():
                from manga_app.catalogue.readers.unar import extract_with_unar

                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                files = extract_with_unar(path, folder, limits)
            else:
                raise translate(exc, label) from None
        yield source_from_folder(files, limits)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def translate(exc: Exception, label: str) -> ArchiveError:
    message = str(exc).split(" (errno=")[0]
    lowered = message.lower()
    if "encrypt" in lowered or "passphrase" in lowered or "password" in lowered:
        return ArchiveError(
            f"the {label} archive is encrypted (password-protected archives are not supported)"
        )
    return ArchiveError(f"unreadable {label} archive: {message}")


def _extract(path: Path, folder: Path, limits: Limits) -> dict[str, Path]:
    files: dict[str, Path] = {}
    total = count = 0
    with libarchive.file_reader(str(path)) as archive:
        for entry in archive:
            count += 1
            if count > limits.max_entries:
                raise ArchiveError(
                    f"too many entries (more than {limits.max_entries}); possible zip bomb"
                )
            name = entry.pathname or ""
            check_name(name)
            if entry.isdir:
                continue
            kind = entry_kind(name)
            if not entry.isreg:
                if kind in ("page", "unsupported"):
                    raise ArchiveError(f"entry {name!r} is a link, not an image; archive refused")
                continue
            if kind not in ("page", "metadata", "unsupported"):
                files[name] = None  # listed as skipped, never decompressed
                continue
            if kind == "unsupported":
                files[name] = None
                continue
            cap = limits.max_metadata_bytes if kind == "metadata" else limits.max_entry_bytes
            target = folder / f"{len(files):05d}"
            size = 0
            with target.open("wb") as out:
                for block in entry.get_blocks():
                    size += len(block)
                    total += len(block)
                    if size > cap:
                        raise ArchiveError(
                            f"entry {name!r} is larger than {cap} bytes; possible zip bomb"
                        )
                    if total > limits.max_total_bytes:
                        raise ArchiveError(
                            f"archive expands past {limits.max_total_bytes} bytes; possible zip bomb"
                        )
                    out.write(block)
            files[name] = target
    return files


def source_from_folder(files: dict[str, Path | None], limits: Limits) -> ChapterSource:
    """A ChapterSource over entries copied to disk (None: an entry left in the archive)."""
    pages, skipped, metadata = sort_entries(files)
    info_name = find_comicinfo(name for name in metadata if files[name] is not None)
    comicinfo = (
        read_small_file(files[info_name], limits.max_metadata_bytes) if info_name else None
    )

    def read(name: str) -> bytes:
        path = files.get(name)
        if path is None:
            raise ArchiveError(f"entry {name!r} could not be extracted")
        return read_small_file(path, limits.max_entry_bytes)

    return ChapterSource(
        pages=pages, comicinfo=comicinfo, _read=read, skipped=skipped, metadata=metadata
    )
