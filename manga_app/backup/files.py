"""Copying the media store and the published files into a backup and back.

Media files are named by their content and never change, so a file already in
the target with the same size is the same file (a second backup into the same
folder copies only what is new). A file removed while it is copied (the
importer's janitor drops media no row uses) is counted, not an error: what the
database copy needs is checked afterwards (`missing_originals`)."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from manga_app.catalogue.publish_files import TEMPORARY_PREFIX


@dataclass
class Copied:
    files: int = 0
    bytes: int = 0
    vanished: int = 0


def copy_tree(source: Path, target: Path) -> Copied:
    """Every file under `source` into `target` (same relative paths) but the
    temporary ones (TEMPORARY_PREFIX..., as media and publishes name a file
    being written): they are never whole, and one restored beside a copied
    `.publish.clean` would never be swept (publish_files.publishing)."""
    done = Copied()
    if not source.is_dir():
        return done
    for folder, _dirs, names in os.walk(source):
        relative = Path(folder).relative_to(source)
        (target / relative).mkdir(parents=True, exist_ok=True)
        for name in names:
            if name.startswith(TEMPORARY_PREFIX):
                continue
            src, dst = Path(folder) / name, target / relative / name
            try:
                size = src.stat().st_size
                if not (dst.is_file() and dst.stat().st_size == size):
                    shutil.copy2(src, dst)
            except FileNotFoundError:
                done.vanished += 1
                continue
            done.files += 1
            done.bytes += size
    return done


def missing_originals(media: Path, originals: set[tuple[str, str | None]]) -> list[str]:
    """The media the database names that `media` lacks: a page's original
    (`ab/<key>.<ext>`), or for a cover any of its thumbnails."""
    missing = []
    for key, ext in sorted(originals, key=lambda item: (item[0], item[1] or "")):
        folder = media / key[:2]
        if ext is not None:
            if not (folder / f"{key}.{ext}").is_file():
                missing.append(f"{key[:2]}/{key}.{ext}")
        elif not any(folder.glob(f"{key}-cover*")):
            missing.append(f"{key[:2]}/{key}-cover*")
    return missing


def is_empty_dir(path: Path) -> bool:
    return not path.exists() or (path.is_dir() and not any(path.iterdir()))
