"""Find chapter candidates under an import source without opening any file.

Like Komga's scanner: it only lists directories and looks at names and stat
data. Deciding whether a file is a readable archive is archives.py's job, so
RAR/7z/EPUB files are still reported here (to be refused with a clear message)
rather than silently ignored.

What is a chapter: every archive file, and every folder that directly holds
page images (or images in a format we refuse, so the operator hears about
them); `cover.*` alone does not make a chapter.

Which folder is the series (the rule `series_dir` follows): walking up from
the chapter, volume folders (`Vol 1`, `Vol.01`, `Volume 2`, `v01`, `第1巻`,
`1巻`) and chapter folders (`Chapter 3`, `Ch.3`, `第3話`, `#3`, `003`) are
skipped (see naming.folder_role); the first other folder is the series folder.
So `ワンダー探偵/Vol 1/Chapter 1/*.webp` and `ワンダー探偵/第2巻/ワンダー探偵 第9話.cbz`
both belong to `ワンダー探偵`. The source folder itself is only a series folder
when it has a `series.json` or `cover.*` (otherwise loose chapters in, say,
~/Downloads would all become a series "Downloads"); without one, the series
is named from the chapter's own name, else from a skipped folder that starts
with a series name (`ワンダー探偵 第1巻`), else from the nearest series folder
at or above the source (`fallback_title`).

Never scanned: hidden folders, `__MACOSX`, and the folders passed as `skip`
(the media store and the published files, whose hashed folders 00..ff would
otherwise read as chapters).

Entries inside a chapter are classified by name (`entry_kind`): pages
(JPEG, PNG, WebP, GIF, AVIF, any letter case), images in a format we do not
support (they fail the chapter: a chapter must never miss pages), metadata
(ComicInfo.xml, series.json) and everything else, which is skipped and noted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from natsort import natsorted, ns

from manga_app.catalogue.naming import folder_role, parse_chapter_name, title_key

__all__ = [
    "ARCHIVE_SUFFIXES",
    "PAGE_SUFFIXES",
    "UNSUPPORTED_IMAGE_SUFFIXES",
    "Candidate",
    "SourceError",
    "describe_entries",
    "entry_kind",
    "is_image_name",
    "scan",
]

PAGE_SUFFIXES = frozenset(
    {".jpg", ".jpeg", ".jfif", ".png", ".apng", ".webp", ".gif", ".avif"}
)
# Images a reader may well put in an archive, which we cannot turn into pages.
UNSUPPORTED_IMAGE_SUFFIXES = frozenset(
    {
        ".bmp", ".dib", ".tif", ".tiff", ".heic", ".heif", ".jxl", ".jp2", ".j2k",
        ".jpx", ".jpf", ".psd", ".psb", ".svg", ".svgz", ".ico", ".tga", ".pcx", ".ppm",
        ".pgm", ".pbm", ".pnm", ".qoi", ".xcf", ".kra", ".exr", ".hdr", ".dds",
        ".raw", ".dng", ".cr2", ".nef", ".arw",
    }
)  # fmt: skip
ARCHIVE_SUFFIXES = frozenset(
    {".cbz", ".zip", ".cbr", ".rar", ".cb7", ".7z", ".epub", ".pdf"}
)
SIDECAR_NAME = "series.json"
METADATA_NAMES = frozenset({"comicinfo.xml", SIDECAR_NAME})
_MACOS_FOLDER = "__MACOSX"


class SourceError(ValueError):
    """The import source cannot be scanned (e.g. it lies inside the media store)."""


@dataclass(frozen=True)
class Candidate:
    """One would-be chapter: an archive file or a folder of images."""

    path: Path
    kind: str  # 'archive' or 'folder'
    # The folder that groups chapters into a series (None: named from the chapter's own name).
    series_dir: Path | None
    sidecar: Path | None  # series.json in series_dir
    cover: Path | None  # cover.* image in series_dir
    # Series name when neither metadata, series_dir nor the chapter's name gives one.
    fallback_title: str | None = None
    # The highest chapter number the names beside it give (where `最終話` or
    # `番外編`, named without a number, go; see naming.ParsedName.after_last).
    last_sibling: Decimal | None = None

    @property
    def stem(self) -> str:
        """The name that numbers it: a folder's name, an archive's without its suffix."""
        return self.path.name if self.kind == "folder" else self.path.stem


def entry_kind(name: str) -> str:
    """'page', 'unsupported' (an image we cannot use), 'metadata' or 'other'.

    `name` may be an archive entry path (`sub/001.png`); hidden files and
    anything under `__MACOSX/` are 'other', whatever their extension.
    """
    parts = name.replace("\\", "/").split("/")
    base = parts[-1]
    if base.startswith(".") or _MACOS_FOLDER in parts[:-1]:
        return "other"
    if base.lower() in METADATA_NAMES:
        return "metadata"
    suffix = os.path.splitext(base)[1].lower()
    if suffix in PAGE_SUFFIXES:
        return "page"
    if suffix in UNSUPPORTED_IMAGE_SUFFIXES:
        return "unsupported"
    return "other"


def is_image_name(name: str) -> bool:
    """Whether a name is a page image we can import (hidden files never are)."""
    return entry_kind(name) == "page"


def describe_entries(names: Iterable[str], *, limit: int = 8) -> str:
    """A short, readable list of entry names for messages: `a.txt, Thumbs.db, __MACOSX/ (3 entries)`."""
    shown: list[str] = []
    macos = 0
    for name in natsorted(names, alg=ns.PATH | ns.IGNORECASE):
        if _MACOS_FOLDER in name.replace("\\", "/").split("/")[:-1]:
            macos += 1
        else:
            shown.append(name)
    if macos:
        shown.append(f"{_MACOS_FOLDER}/ ({macos} {'entry' if macos == 1 else 'entries'})")
    if len(shown) > limit:
        shown = [*shown[:limit], f"and {len(shown) - limit} more"]
    return ", ".join(shown)


def _is_cover(name: str) -> bool:
    return os.path.splitext(name)[0].lower() == "cover" and is_image_name(name)


def _makes_chapter(name: str) -> bool:
    return entry_kind(name) in ("page", "unsupported") and not _is_cover(name)


def _series_file(name: str) -> bool:
    """series.json or cover.*: read for the series, not a chapter."""
    return name.lower() == SIDECAR_NAME or _is_cover(name)


def scan(
    source: Path, *, skip: Iterable[Path] = (), strays: list[Path] | None = None
) -> list[Candidate]:
    """All candidates under `source` (a folder, or one archive), in natural order.

    Folders in `skip` are never entered; SourceError when `source` lies inside one.
    `strays` receives the files that are neither part of a candidate nor series
    metadata (series.json, cover.*), so the import can name them instead of
    leaving them out silently. Hidden files are not comics and are left out.
    """
    source = source.resolve()
    skipped = {Path(folder).resolve() for folder in skip}
    for folder in skipped:
        if source == folder or source.is_relative_to(folder):
            raise SourceError(f"{source} is inside {folder}, which the importer writes itself")
    if source.is_file():
        return [_candidate(source, "archive", root=source.parent)]
    found: list[Candidate] = []
    for dirpath, dirnames, filenames in os.walk(source):
        here = Path(dirpath)
        dirnames[:] = [
            d
            for d in dirnames
            if not d.startswith(".") and d != _MACOS_FOLDER and here / d not in skipped
        ]
        chapter = any(_makes_chapter(f) for f in filenames)
        if chapter:
            found.append(_candidate(here, "folder", root=source))
        for name in filenames:
            if name.startswith("."):
                continue
            if os.path.splitext(name)[1].lower() in ARCHIVE_SUFFIXES:
                found.append(_candidate(here / name, "archive", root=source))
            elif strays is not None and not chapter and not _series_file(name):
                strays.append(here / name)
    return _with_last_siblings(natsorted(found, key=lambda c: str(c.path), alg=ns.PATH | ns.IGNORECASE))


def _with_last_siblings(found: list[Candidate]) -> list[Candidate]:
    """Each candidate with the highest chapter number of its series: the series
    folder's chapters (extras folders included), else the loose files beside it
    whose names give the same series."""
    parsed = [parse_chapter_name(candidate.stem) for candidate in found]
    groups = [c.series_dir or (c.path.parent, title_key(p.series or "")) for c, p in zip(found, parsed)]
    last: dict[object, Decimal] = {}
    for group, name in zip(groups, parsed):
        if name.kind == "chapter" and name.number is not None:
            last[group] = max(last.get(group, name.number), name.number)
    return [replace(c, last_sibling=last.get(group)) for c, group in zip(found, groups)]


def _candidate(path: Path, kind: str, *, root: Path) -> Candidate:
    series_dir, fallback = _series_folder(path, root)
    sidecar = cover = None
    if series_dir is not None:
        sidecar_path = series_dir / SIDECAR_NAME
        sidecar = sidecar_path if sidecar_path.is_file() else None
        cover = _find_cover(series_dir)
    return Candidate(
        path=path,
        kind=kind,
        series_dir=series_dir,
        sidecar=sidecar,
        cover=cover,
        fallback_title=fallback,
    )


def _series_folder(path: Path, root: Path) -> tuple[Path | None, str | None]:
    """(series folder inside the source or None, fallback series name); see the module doc."""
    if path == root:  # the source itself is one chapter folder
        return None, _nearest_series_name(path.parent)
    prefix = None
    folder = path.parent
    while folder != root and folder.is_relative_to(root):
        role = folder_role(folder.name)
        if role.kind == "series":
            return folder, None
        prefix = prefix or role.series
        folder = folder.parent
    if folder == root and folder_role(root.name).kind == "series" and _has_sidecar_or_cover(root):
        return root, None
    return None, prefix or _nearest_series_name(folder)


def _nearest_series_name(folder: Path) -> str | None:
    """The name of `folder` or its nearest ancestor that is not a volume or chapter folder."""
    for candidate in (folder, *folder.parents):
        role = folder_role(candidate.name) if candidate.name else None
        if role is None:
            return None
        if role.kind == "series":
            return candidate.name
        if role.series:
            return role.series
    return None


def _has_sidecar_or_cover(folder: Path) -> bool:
    return (folder / SIDECAR_NAME).is_file() or _find_cover(folder) is not None


def _find_cover(folder: Path) -> Path | None:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None
    for name in names:
        if _is_cover(name) and (folder / name).is_file():
            return folder / name
    return None
