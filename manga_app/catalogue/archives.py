"""The only module that opens chapter archives and folders.

Everything read from an archive is untrusted: names are checked for path
traversal, entries are read with bounded reads (header sizes can lie), and
the entry count, each entry's real size and the total are capped in absolute
terms (a blank page compresses 1000:1 and is still a page), so a zip bomb
costs at most a few hundred megabytes of reading before it is refused.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import zipfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from natsort import natsorted, ns

from manga_app.catalogue.scanner import describe_entries, entry_kind

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

_CHUNK = 64 * 1024
_SIGNATURES = (
    (b"Rar!\x1a\x07", "RAR archives are not supported; repack the chapter as CBZ (ZIP)"),
    (b"7z\xbc\xaf\x27\x1c", "7-Zip archives are not supported; repack the chapter as CBZ (ZIP)"),
)
_ZIP_SIGNATURES = (b"PK\x03\x04", b"PK\x05\x06")
_ZIP_METHODS = {
    zipfile.ZIP_STORED: "stored",
    zipfile.ZIP_DEFLATED: "deflate",
    zipfile.ZIP_BZIP2: "bzip2",
    zipfile.ZIP_LZMA: "LZMA",
}
_UNSUPPORTED_METHODS = {9: "Deflate64", 98: "PPMd", 99: "WinZip AES", 93: "Zstandard", 95: "XZ"}
_DRIVE = re.compile(r"^[A-Za-z]:")


class ArchiveError(Exception):
    """The chapter cannot be read safely; the message says why (without the file name)."""


@dataclass(frozen=True)
class Limits:
    """Caps against hostile archives; generous for real chapters."""

    max_entries: int = 5_000
    max_entry_bytes: int = 64 * 1024 * 1024
    max_total_bytes: int = 1024 * 1024 * 1024
    max_metadata_bytes: int = 1024 * 1024


DEFAULT_LIMITS = Limits()


@dataclass
class ChapterSource:
    """Page names in natural order, ComicInfo.xml bytes if present, and bounded page reads.

    `skipped` names the entries that are neither pages nor metadata (notes,
    Thumbs.db, __MACOSX/...), so the report can say what was left out.

    `read` raises ArchiveError for anything wrong with the entry, so pages can
    be read outside the `open_chapter` block's error translation (the importer
    reads them while earlier chapters are still being processed).
    """

    pages: list[str]
    comicinfo: bytes | None
    _read: object = field(repr=False)
    skipped: list[str] = field(default_factory=list)  # entries that are not pages (noted)
    metadata: list[str] = field(default_factory=list)  # ComicInfo.xml, series.json

    def read(self, name: str) -> bytes:
        return self._read(name)


@contextmanager
def open_chapter(path: Path, kind: str, limits: Limits = DEFAULT_LIMITS) -> Iterator[ChapterSource]:
    """Open an archive ('archive') or image folder ('folder'); ArchiveError when unsafe."""
    if kind == "folder":
        yield _open_folder(path, limits)
        return
    _check_signature(path)
    try:
        with zipfile.ZipFile(path) as archive:
            yield _open_zip(archive, limits)
    except zipfile.BadZipFile as exc:
        raise ArchiveError(f"corrupt ZIP archive: {exc}") from None
    except (EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
        raise ArchiveError(f"unreadable ZIP archive: {exc}") from None


def _check_signature(path: Path) -> None:
    with path.open("rb") as handle:
        head = handle.read(8)
    for signature, message in _SIGNATURES:
        if head.startswith(signature):
            raise ArchiveError(message)
    if not head.startswith(_ZIP_SIGNATURES):
        raise ArchiveError("not a ZIP/CBZ archive (unknown or corrupt file format)")


def _open_zip(archive: zipfile.ZipFile, limits: Limits) -> ChapterSource:
    infos = archive.infolist()
    if len(infos) > limits.max_entries:
        raise ArchiveError(
            f"too many entries ({len(infos)} > {limits.max_entries}); possible zip bomb"
        )
    for info in infos:
        _check_name(info.filename)
    by_name = {info.filename: info for info in infos if not info.is_dir()}
    mimetype = by_name.get("mimetype")
    if (
        mimetype
        and _read_entry(archive, mimetype, 64, limits, [0]).strip() == b"application/epub+zip"
    ):
        raise ArchiveError("EPUB books are not supported; import the chapter as CBZ (ZIP)")
    pages, skipped, metadata = _sort_entries(by_name)
    for name in pages:
        _check_method(by_name[name])  # refuse up front, before any page is stored
    declared = sum(by_name[n].file_size for n in pages)
    if declared > limits.max_total_bytes:
        raise ArchiveError(
            f"declared size {declared} bytes exceeds {limits.max_total_bytes}; possible zip bomb"
        )
    budget = [0]  # bytes read so far, shared by every read of this chapter
    comicinfo_name = next((n for n in by_name if n.lower() == "comicinfo.xml"), None) or next(
        (n for n in by_name if n.lower().endswith("/comicinfo.xml")), None
    )
    comicinfo = None
    if comicinfo_name:
        comicinfo = _read_entry(
            archive, by_name[comicinfo_name], limits.max_metadata_bytes, limits, budget
        )

    def read(name: str) -> bytes:
        try:
            return _read_entry(archive, by_name[name], limits.max_entry_bytes, limits, budget)
        except zipfile.BadZipFile as exc:  # e.g. a bad CRC, found only when reading
            raise ArchiveError(f"corrupt ZIP archive: {exc}") from None
        except (EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
            raise ArchiveError(f"unreadable ZIP archive: {exc}") from None

    return ChapterSource(
        pages=pages, comicinfo=comicinfo, _read=read, skipped=skipped, metadata=metadata
    )


def _sort_entries(names: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """(pages in natural order, entries that are not pages, metadata entries).

    ArchiveError for images in a format we cannot convert.

    An image we cannot convert fails the whole chapter: importing the rest
    would publish a chapter with pages silently missing.
    """
    pages, unsupported, skipped, metadata = [], [], [], []
    for name in names:
        kind = entry_kind(name)
        if kind == "page":
            pages.append(name)
        elif kind == "unsupported":
            unsupported.append(name)
        elif kind == "other":
            skipped.append(name)
        else:
            metadata.append(name)
    if unsupported:
        raise ArchiveError(
            f"{len(unsupported)} page image(s) in a format we cannot import: "
            f"{describe_entries(unsupported)} (supported: JPEG, PNG, WebP, GIF, AVIF); "
            "convert them and import the chapter again"
        )
    return natsorted(pages, alg=ns.PATH | ns.IGNORECASE), skipped, metadata


def _check_name(name: str) -> None:
    normal = name.replace("\\", "/")
    if (
        normal.startswith("/")
        or _DRIVE.match(normal)
        or ".." in normal.split("/")
        or "\x00" in normal
    ):
        raise ArchiveError(f"unsafe entry name {name!r} (absolute path or '..'); archive refused")


def _check_method(info: zipfile.ZipInfo) -> None:
    if info.flag_bits & 0x1:
        raise ArchiveError(
            f"entry {info.filename!r} is encrypted (password-protected archives are not supported)"
        )
    if info.compress_type not in _ZIP_METHODS:
        method = _UNSUPPORTED_METHODS.get(info.compress_type, f"method {info.compress_type}")
        raise ArchiveError(f"entry {info.filename!r} uses unsupported ZIP compression {method}")


def _read_entry(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int, limits: Limits, budget: list[int]
) -> bytes:
    _check_method(info)
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


def _open_folder(folder: Path, limits: Limits) -> ChapterSource:
    files = _folder_files(folder)
    if len(files) > limits.max_entries:
        raise ArchiveError(f"too many files ({len(files)} > {limits.max_entries})")
    pages, skipped, metadata = _sort_entries(files)
    info_name = next((n for n in files if n.lower() == "comicinfo.xml"), None)
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


def read_small_file(path: Path, cap: int) -> bytes:
    """Read a plain file, refusing anything larger than `cap` bytes."""
    with path.open("rb") as handle:
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise ArchiveError(f"{path.name!r} is larger than {cap} bytes")
    return data


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
