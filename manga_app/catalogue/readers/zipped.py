"""ZIP/CBZ chapters through zipfile, with random access and bounded reads.

zipfile reads stored, Deflate, BZip2 and LZMA entries, and Deflate64 once
zipfile-deflate64 has taught it; archives using other methods (PPMd, XZ,
Zstandard) are read through libarchive instead (extracted.py). Header sizes
can lie, so every read counts the bytes it really gets.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import zipfile_deflate64  # noqa: F401 - registers Deflate64 (method 9) with zipfile

from manga_app.catalogue.readers.base import (
    ArchiveError,
    ChapterSource,
    Limits,
    check_name,
    find_comicinfo,
    sort_entries,
)
from manga_app.catalogue.readers.extracted import open_extracted

__all__ = ["is_epub", "open_zip"]

_CHUNK = 64 * 1024
_ZIPFILE_METHODS = frozenset({0, 8, 9, 12, 14})  # stored, Deflate, Deflate64, BZip2, LZMA


@contextmanager
def open_zip(path: Path, limits: Limits) -> Iterator[ChapterSource]:
    try:
        with zipfile.ZipFile(path) as archive:
            source = _open(archive, limits)
            if source is not None:
                yield source
                return
    except zipfile.BadZipFile as exc:
        raise ArchiveError(f"corrupt ZIP archive: {exc}") from None
    except (EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
        raise ArchiveError(f"unreadable ZIP archive: {exc}") from None
    with open_extracted(path, "ZIP", limits) as source:  # PPMd, XZ, Zstandard...
        yield source


def is_epub(path: Path) -> bool:
    """Whether a ZIP file is an EPUB book (its `mimetype` entry says so)."""
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo("mimetype")
            if info.file_size > 64 or info.compress_type not in _ZIPFILE_METHODS:
                return False
            return archive.read(info).strip() == b"application/epub+zip"
    except (KeyError, zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError):
        return False


def _open(archive: zipfile.ZipFile, limits: Limits) -> ChapterSource | None:
    """The chapter, or None when zipfile cannot decompress its pages (libarchive will)."""
    infos = archive.infolist()
    if len(infos) > limits.max_entries:
        raise ArchiveError(
            f"too many entries ({len(infos)} > {limits.max_entries}); possible zip bomb"
        )
    for info in infos:
        check_name(info.filename)
    by_name = {info.filename: info for info in infos if not info.is_dir()}
    pages, skipped, metadata = sort_entries(by_name)
    for name in pages:
        _check_encryption(by_name[name])  # refuse up front, before any page is stored
    if any(by_name[name].compress_type not in _ZIPFILE_METHODS for name in pages):
        return None
    declared = sum(by_name[n].file_size for n in pages)
    if declared > limits.max_total_bytes:
        raise ArchiveError(
            f"declared size {declared} bytes exceeds {limits.max_total_bytes}; possible zip bomb"
        )
    budget = [0]  # bytes read so far, shared by every read of this chapter
    comicinfo_name = find_comicinfo(by_name)
    comicinfo = None
    if comicinfo_name and by_name[comicinfo_name].compress_type in _ZIPFILE_METHODS:
        comicinfo = read_entry(
            archive, by_name[comicinfo_name], limits.max_metadata_bytes, limits, budget
        )

    def read(name: str) -> bytes:
        try:
            return read_entry(archive, by_name[name], limits.max_entry_bytes, limits, budget)
        except zipfile.BadZipFile as exc:  # e.g. a bad CRC, found only when reading
            raise ArchiveError(f"corrupt ZIP archive: {exc}") from None
        except (EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
            raise ArchiveError(f"unreadable ZIP archive: {exc}") from None

    return ChapterSource(
        pages=pages, comicinfo=comicinfo, _read=read, skipped=skipped, metadata=metadata
    )


def _check_encryption(info: zipfile.ZipInfo) -> None:
    if info.flag_bits & 0x1 or info.compress_type == 99:
        raise ArchiveError(
            f"entry {info.filename!r} is encrypted (password-protected archives are not supported)"
        )


def read_entry(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int, limits: Limits, budget: list[int]
) -> bytes:
    """An entry's bytes, refusing more than `cap` of them or the chapter's total budget."""
    _check_encryption(info)
    chunks: list[bytes] = []
    size = 0
    with archive.open(info) as stream:
        while chunk := stream.read(_CHUNK):
            size += len(chunk)
            budget[0] += len(chunk)
            if size > cap:
                raise ArchiveError(
                    f"entry {info.filename!r} is larger than {cap} bytes; possible zip bomb"
                )
            if budget[0] > limits.max_total_bytes:
                raise ArchiveError(
                    f"archive expands past {limits.max_total_bytes} bytes; possible zip bomb"
                )
            chunks.append(chunk)
    return b"".join(chunks)
