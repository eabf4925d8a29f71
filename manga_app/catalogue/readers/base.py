"""What every chapter reader shares: the error, the limits, the result, name checks.

Pure helpers: no framework imports. Readers build a ChapterSource whose
`read` raises ArchiveError for anything wrong with an entry, so pages can be
read outside the opening block (the importer reads them while earlier
chapters are still being processed).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from natsort import natsorted, ns

from manga_app.catalogue.scanner import describe_entries, entry_kind

__all__ = [
    "DEFAULT_LIMITS",
    "ArchiveError",
    "ChapterSource",
    "Limits",
    "check_name",
    "find_comicinfo",
    "read_small_file",
    "sort_entries",
]

_DRIVE = re.compile(r"^[A-Za-z]:")


class ArchiveError(Exception):
    """The chapter cannot be read safely; the message says why (without the file name)."""


@dataclass(frozen=True)
class Limits:
    """Caps against hostile archives, in absolute terms; generous for real chapters.

    A blank page compresses a thousandfold and is still a page, so no ratio is
    checked: each entry's real size, the total and the entry count are.
    """

    max_entries: int = 5_000  # entries of an archive, pages of a PDF
    max_entry_bytes: int = 64 * 1024 * 1024
    max_total_bytes: int = 1024 * 1024 * 1024
    max_metadata_bytes: int = 1024 * 1024


DEFAULT_LIMITS = Limits()


@dataclass
class ChapterSource:
    """Page names in reading order, ComicInfo.xml bytes if present, and bounded page reads.

    `skipped` names the entries that are neither pages nor metadata (notes,
    Thumbs.db, __MACOSX/...), so the report can say what was left out.
    Readers of formats without ComicInfo.xml (EPUB) hand their metadata over
    as ComicInfo.xml bytes, so the importer treats every format alike.
    """

    pages: list[str]
    comicinfo: bytes | None
    _read: Callable[[str], bytes] = field(repr=False)
    skipped: list[str] = field(default_factory=list)  # entries that are not pages (noted)
    metadata: list[str] = field(default_factory=list)  # ComicInfo.xml, series.json

    def read(self, name: str) -> bytes:
        return self._read(name)


def sort_entries(names: Iterable[str]) -> tuple[list[str], list[str], list[str]]:
    """(pages in natural order, entries that are not pages, metadata entries).

    ArchiveError for images in a format we cannot convert: importing the rest
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


def check_name(name: str) -> None:
    """ArchiveError for an entry name that could land outside the chapter."""
    normal = name.replace("\\", "/")
    if (
        normal.startswith("/")
        or _DRIVE.match(normal)
        or ".." in normal.split("/")
        or "\x00" in normal
    ):
        raise ArchiveError(f"unsafe entry name {name!r} (absolute path or '..'); archive refused")


def find_comicinfo(names: Iterable[str]) -> str | None:
    """ComicInfo.xml at the top, else in a subfolder."""
    names = list(names)
    return next((n for n in names if n.lower() == "comicinfo.xml"), None) or next(
        (n for n in names if n.lower().endswith("/comicinfo.xml")), None
    )


def read_small_file(path: Path, cap: int) -> bytes:
    """Read a plain file, refusing anything larger than `cap` bytes."""
    with path.open("rb") as handle:
        data = handle.read(cap + 1)
    if len(data) > cap:
        raise ArchiveError(f"{path.name!r} is larger than {cap} bytes")
    return data
