"""A chapter or volume as a CBZ, streamed as it is read from the media
store: no temporary file, no archive in memory. Pages are the published
originals (already compressed images), so entries are STORED, and the
archive's exact size is known before the first byte (Content-Length).
ComicInfo.xml comes first. No framework imports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from zipstream import ZIP_STORED, ZipStream


@dataclass(frozen=True)
class ArchivePage:
    path: Path  # the original in the media store
    ext: str


class MissingPage(Exception):
    """A page's file is not in the media store (the message names it)."""


def page_names(pages: Sequence[ArchivePage]) -> list[str]:
    """`001.jpg`, `002.png`...: zero-padded so every app sorts them in order."""
    width = max(3, len(str(len(pages))))
    return [f"{index:0{width}d}.{page.ext}" for index, page in enumerate(pages, start=1)]


def cbz_stream(pages: Sequence[ArchivePage], comicinfo: bytes) -> ZipStream:
    """The archive, ready to iterate (`len()` is its size in bytes).

    Every page file is checked first: a missing one raises MissingPage
    before anything is sent, never half an archive."""
    for page in pages:
        if not page.path.is_file():
            raise MissingPage(str(page.path))
    stream = ZipStream(compress_type=ZIP_STORED, sized=True)
    stream.add(comicinfo, "ComicInfo.xml")
    for page, name in zip(pages, page_names(pages)):
        stream.add_path(str(page.path), name)
    return stream
