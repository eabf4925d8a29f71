"""A chapter or volume as a CBZ, streamed as it is read from the media
store: no temporary file, no archive in memory. Pages are the published
originals (already compressed images), so entries are STORED, and the
archive's exact size is known before the first byte (Content-Length).
ComicInfo.xml comes first. No framework imports.

The same unit is the same bytes at every download (ZIP entries carry their
file's modification time, and ComicInfo.xml is a file of its own with a fixed
one), so an interrupted download resumes with a Range request: `etag` names
those bytes, `byte_range` reads the header and `sliced` cuts the stream."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from zipstream import ZIP_STORED, ZipStream

# ComicInfo.xml's modification time in every archive (2000-01-01 UTC).
COMICINFO_MTIME = 946_684_800
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


@dataclass(frozen=True)
class ArchivePage:
    path: Path  # the original in the media store
    ext: str


class MissingPage(Exception):
    """A page's file is not in the media store (the message names it)."""


class Unsatisfiable(Exception):
    """The range starts past the archive's end (416)."""


def page_names(pages: Sequence[ArchivePage]) -> list[str]:
    """`001.jpg`, `002.png`...: zero-padded so every app sorts them in order."""
    width = max(3, len(str(len(pages))))
    return [f"{index:0{width}d}.{page.ext}" for index, page in enumerate(pages, start=1)]


def cbz_stream(pages: Sequence[ArchivePage], comicinfo: Path) -> ZipStream:
    """The archive, ready to iterate (`len()` is its size in bytes).
    `comicinfo` is ComicInfo.xml as a file (see comicinfo_file).

    Every page file is checked first: a missing one raises MissingPage
    before anything is sent, never half an archive."""
    for page in pages:
        if not page.path.is_file():
            raise MissingPage(str(page.path))
    stream = ZipStream(compress_type=ZIP_STORED, sized=True)
    stream.add_path(str(comicinfo), "ComicInfo.xml")
    for page, name in zip(pages, page_names(pages)):
        stream.add_path(str(page.path), name)
    return stream


def comicinfo_file(content: bytes, folder: Path) -> Path:
    """ComicInfo.xml as a file named by its content under `folder`, with the
    fixed modification time, written once (atomically)."""
    digest = hashlib.sha256(content).hexdigest()
    path = folder / digest[:2] / f"{digest}.xml"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{id(content)}")
        partial.write_bytes(content)
        partial.replace(path)
    if path.stat().st_mtime != COMICINFO_MTIME:
        os.utime(path, (COMICINFO_MTIME, COMICINFO_MTIME))
    return path


def etag(pages: Sequence[ArchivePage], comicinfo: Path) -> str:
    """A strong validator of the archive's bytes: what each entry's bytes and time come from."""
    digest = hashlib.sha256(comicinfo.name.encode())
    for page, name in zip(pages, page_names(pages)):
        info = page.path.stat()
        digest.update(f"\0{name}\0{page.path.name}\0{info.st_size}\0{info.st_mtime_ns}".encode())
    return f'"{digest.hexdigest()[:32]}"'


def byte_range(header: str | None, size: int) -> tuple[int, int] | None:
    """The one range `bytes=a-b`, `bytes=a-` or `bytes=-n` asks for, as
    (first, last) inclusive; None for the whole archive (no header, several
    ranges or a malformed one: RFC 9110 lets a server ignore those).
    Raises Unsatisfiable for a range that starts past the end."""
    found = _RANGE.match((header or "").strip())
    if found is None or not any(found.groups()):
        return None
    first, last = found.groups()
    if not first:  # the last n bytes
        length = int(last)
        if length == 0:
            raise Unsatisfiable
        return max(0, size - length), size - 1
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size:
        raise Unsatisfiable
    if end < start:
        return None
    return start, end


def sliced(chunks: Iterable[bytes], first: int, last: int) -> Iterator[bytes]:
    """The bytes first..last (inclusive) of the stream of `chunks`."""
    position = 0
    for chunk in chunks:
        end = position + len(chunk)
        if end > first and position <= last:
            yield chunk[max(0, first - position): last - position + 1]
        if end > last:
            return
        position = end
