"""The only module that opens chapter archives and folders (readers/ has one reader per format).

Everything read from an archive is untrusted: names are checked for path
traversal, entries are read with bounded reads (header sizes can lie), and
the entry count, each entry's real size and the total are capped in absolute
terms (a blank page compresses 1000:1 and is still a page), so a zip bomb
costs at most a few hundred megabytes of reading before it is refused.

The format is told by the file's first bytes, not its name: ZIP (an EPUB
when its `mimetype` says so), RAR, 7z or PDF.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from natsort import natsorted

from manga_app.catalogue.readers.base import (
    DEFAULT_LIMITS,
    ArchiveError,
    ChapterSource,
    Limits,
    find_comicinfo,
    read_small_file,
    sort_entries,
)
from manga_app.catalogue.readers.extracted import open_extracted
from manga_app.catalogue.readers.zipped import is_epub, open_zip
from manga_app.catalogue.scanner import entry_kind

__all__ = [
    "DEFAULT_LIMITS",
    "ArchiveError",
    "ChapterSource",
    "Limits",
    "SourceStat",
    "content_hash",
    "open_chapter",
    "read_small_file",
    "source_stat",
]

_ZIP_SIGNATURES = (b"PK\x03\x04", b"PK\x05\x06")
_RAR_SIGNATURE = b"Rar!\x1a\x07"
_7Z_SIGNATURE = b"7z\xbc\xaf\x27\x1c"
_PDF_SIGNATURE = b"%PDF-"


@contextmanager
def open_chapter(path: Path, kind: str, limits: Limits = DEFAULT_LIMITS) -> Iterator[ChapterSource]:
    """Open an archive ('archive') or image folder ('folder'); ArchiveError when unsafe."""
    if kind == "folder":
        yield _open_folder(path, limits)
        return
    with path.open("rb") as handle:
        head = handle.read(8)
    if head.startswith(_ZIP_SIGNATURES):
        if is_epub(path):
            from manga_app.catalogue.readers.epub import open_epub

            reader = open_epub(path, limits)
        else:
            reader = open_zip(path, limits)
    elif head.startswith(_RAR_SIGNATURE):
        reader = open_extracted(path, "RAR", limits)
    elif head.startswith(_7Z_SIGNATURE):
        reader = open_extracted(path, "7z", limits)
    elif head.startswith(_PDF_SIGNATURE):
        from manga_app.catalogue.readers.pdf import open_pdf

        reader = open_pdf(path, limits)
    else:
        raise ArchiveError(
            "not a comic archive (CBZ/ZIP, CBR/RAR, CB7/7z, EPUB or PDF): "
            "unknown or corrupt file format"
        )
    with reader as source:
        yield source


def _open_folder(folder: Path, limits: Limits) -> ChapterSource:
    files = _folder_files(folder)
    if len(files) > limits.max_entries:
        raise ArchiveError(f"too many files ({len(files)} > {limits.max_entries})")
    pages, skipped, metadata = sort_entries(files)
    info_name = find_comicinfo(n for n in files if "/" not in n)
    comicinfo = (
        read_small_file(folder / info_name, limits.max_metadata_bytes) if info_name else None
    )
    budget = [0]

    def read(name: str) -> bytes:
        data = read_small_file(folder / name, limits.max_entry_bytes)
        budget[0] += len(data)
        if budget[0] > limits.max_total_bytes:
            raise ArchiveError(f"folder holds more than {limits.max_total_bytes} bytes of images")
        return data

    return ChapterSource(
        pages=pages, comicinfo=comicinfo, _read=read, skipped=skipped, metadata=metadata
    )


def _folder_files(folder: Path) -> list[str]:
    """Regular files directly in `folder`; symlinks are refused (they could point anywhere)."""
    names = []
    for entry in os.scandir(folder):
        if entry.is_symlink():
            if entry_kind(entry.name) in ("page", "unsupported"):
                raise ArchiveError(
                    f"symbolic link {entry.name!r} in chapter folder; folder refused"
                )
            continue
        if entry.is_file():
            names.append(entry.name)
    return names


@dataclass(frozen=True)
class SourceStat:
    """Cheap identity of a chapter source: its size and last modification.

    Unchanged size and mtime mean unchanged content (the fast path of a
    re-import); when either differs, the content hash decides, so a `touch`
    or a copy that keeps the bytes does not re-import the chapter.
    """

    size: int
    mtime_ns: int


def source_stat(path: Path, kind: str) -> SourceStat:
    """Size and mtime of an archive; of a folder: its files' total size and the
    newest mtime of the folder (renames, additions) and its files."""
    if kind != "folder":
        info = path.stat()
        return SourceStat(info.st_size, info.st_mtime_ns)
    size, mtime = 0, path.stat().st_mtime_ns
    for name in _folder_files(path):
        info = (path / name).stat()
        size += info.st_size
        mtime = max(mtime, info.st_mtime_ns)
    return SourceStat(size, mtime)


def content_hash(path: Path, kind: str) -> str:
    """sha256 of an archive's bytes, or of a folder's file names and contents."""
    digest = hashlib.sha256()
    if kind != "folder":
        _hash_file(path, digest)
        return digest.hexdigest()
    for name in natsorted(_folder_files(path)):
        info = (path / name).stat()
        if not stat.S_ISREG(info.st_mode):
            continue
        digest.update(name.encode() + b"\0" + str(info.st_size).encode() + b"\0")
        _hash_file(path / name, digest)
    return digest.hexdigest()


def _hash_file(path: Path, digest) -> None:
    with path.open("rb") as handle:
        while chunk := handle.read(1024 * 1024):
            digest.update(chunk)
