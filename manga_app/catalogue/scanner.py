"""Find chapter candidates under an import source without opening any file.

Like Komga's scanner: it only lists directories and looks at names and stat
data. Deciding whether a file is a readable archive is archives.py's job, so
RAR/7z/EPUB files are still reported here (to be refused with a clear message)
rather than silently ignored.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from natsort import natsorted, ns

__all__ = ["ARCHIVE_SUFFIXES", "IMAGE_SUFFIXES", "Candidate", "is_image_name", "scan"]

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".gif"})
ARCHIVE_SUFFIXES = frozenset({".cbz", ".zip", ".cbr", ".rar", ".cb7", ".7z", ".epub"})
SIDECAR_NAME = "series.json"


@dataclass(frozen=True)
class Candidate:
    """One would-be chapter: an archive file or a folder of images."""

    path: Path
    kind: str  # 'archive' or 'folder'
    # The folder that groups chapters into a series (None: a loose file in the source root).
    series_dir: Path | None
    sidecar: Path | None  # series.json in series_dir
    cover: Path | None  # cover.* image in series_dir


def is_image_name(name: str) -> bool:
    """Whether a file name looks like a page image (hidden files never do)."""
    base = name.rsplit("/", 1)[-1]
    return not base.startswith(".") and os.path.splitext(base)[1].lower() in IMAGE_SUFFIXES


def _is_cover(name: str) -> bool:
    return os.path.splitext(name)[0].lower() == "cover" and is_image_name(name)


def scan(source: Path) -> list[Candidate]:
    """All candidates under `source` (a folder, or one archive), in natural order."""
    source = source.resolve()
    if source.is_file():
        return [_candidate(source, "archive", root=source.parent)]
    found: list[Candidate] = []
    for dirpath, dirnames, filenames in os.walk(source):
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "__MACOSX"))]
        here = Path(dirpath)
        pages = [f for f in filenames if is_image_name(f) and not _is_cover(f)]
        if pages:
            found.append(_candidate(here, "folder", root=source))
        for name in filenames:
            if not name.startswith(".") and os.path.splitext(name)[1].lower() in ARCHIVE_SUFFIXES:
                found.append(_candidate(here / name, "archive", root=source))
    return natsorted(found, key=lambda c: str(c.path), alg=ns.PATH | ns.IGNORECASE)


def _candidate(path: Path, kind: str, *, root: Path) -> Candidate:
    series_dir = path.parent
    if kind == "folder" and path == root:
        series_dir = None  # the source itself is one chapter folder: name it from its own name
    elif series_dir == root and not _has_sidecar_or_cover(series_dir):
        series_dir = None  # loose chapters in the source root: series from their own names
    sidecar = cover = None
    if series_dir is not None:
        sidecar_path = series_dir / SIDECAR_NAME
        sidecar = sidecar_path if sidecar_path.is_file() else None
        cover = _find_cover(series_dir)
    return Candidate(path=path, kind=kind, series_dir=series_dir, sidecar=sidecar, cover=cover)


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
