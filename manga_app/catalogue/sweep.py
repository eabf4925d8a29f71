"""Media left behind by an import that died (`kill -9`, power loss), removed by the next one.

An import that stops normally removes what it wrote and did not commit
(janitor.py), and sweeps once more on its way out when it is alone; one that
dies cannot. So every import holds a shared lock on
`<media>/.import.lock` for its whole run, and first tries to take it
exclusively: when that succeeds no other import is running, so every file
in the store that no committed row uses, and every temporary file, is a
leftover and is removed. The kernel releases the lock of a killed import.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.media import (
    MediaError,
    MediaStore,
    WriteLog,
    original_path,
    page_targets,
)
from manga_app.catalogue.models import Page, Series
from manga_app.catalogue.publish_files import TEMPORARY_PREFIX

__all__ = ["LOCK_NAME", "import_lock", "sweep_orphans", "upgrade_derivatives"]

LOCK_NAME = ".import.lock"
# Present once every page has the derivatives of the current naming (reader JPEG).
UPGRADED_NAME = ".derivatives-v2"
_HEX = frozenset("0123456789abcdef")


@contextmanager
def import_lock(engine: sa.Engine, media: MediaStore) -> Iterator[int]:
    """Held for an import; yields how many leftover files were removed (when alone)."""
    media.root.mkdir(parents=True, exist_ok=True)
    with (media.root / LOCK_NAME).open("a") as handle:
        removed = 0
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pass  # another import is running: its files are not leftovers
        else:
            removed = sweep_orphans(engine, media)
            upgrade_derivatives(engine, media)
        fcntl.flock(handle, fcntl.LOCK_SH)
        try:
            yield removed
        finally:
            _sweep_if_alone(handle, engine, media)
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sweep_if_alone(handle, engine: sa.Engine, media: MediaStore) -> None:
    """On the way out (also after Ctrl-C): sweep again when no other import runs.

    A page task handed to a worker in the instant Ctrl-C arrived is known to
    nobody; its files are found here rather than by the next import.
    """
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return
    try:
        sweep_orphans(engine, media)
    except (sa.exc.SQLAlchemyError, OSError):
        pass  # the next import sweeps; never hide why this one stopped


def sweep_orphans(engine: sa.Engine, media: MediaStore) -> int:
    """Remove every media file no page or cover row uses, and temporary files.

    Only call it while no import runs (see import_lock).
    """
    on_disk: dict[str, list[Path]] = {}
    temporary: list[Path] = []
    for folder in _hashed_folders(media.root):
        for entry in os.scandir(folder):
            if entry.name.startswith(TEMPORARY_PREFIX):
                temporary.append(Path(entry.path))
            elif entry.is_file() and _HEX.issuperset(entry.name[:64]) and len(entry.name) > 64:
                on_disk.setdefault(entry.name[:64], []).append(Path(entry.path))
    if not on_disk and not temporary:
        return 0
    with Session(engine) as session:
        used = set(session.exec(select(Page.media_key).distinct()))
        used |= {key for key in session.exec(select(Series.cover_key)) if key}
    removed = 0
    for key, paths in on_disk.items():
        if key not in used:
            for path in paths:
                path.unlink(missing_ok=True)
                removed += 1
    for path in temporary:
        path.unlink(missing_ok=True)
        removed += 1
    for folder in _hashed_folders(media.root):
        try:
            folder.rmdir()
        except OSError:
            pass  # not empty
    return removed


def upgrade_derivatives(engine: sa.Engine, media: MediaStore) -> int:
    """Write the derivatives a page imported by an older version lacks (once per store).

    Reader derivatives were WebP before they became JPEG: the published
    manifests name the JPEG, so it is derived from the stored original.
    Returns how many pages were upgraded.
    """
    marker = media.root / UPGRADED_NAME
    if marker.exists():
        return 0
    with Session(engine) as session:
        # Plain tuples: hashing and sorting 200,000 SQLAlchemy Rows took about half of a damaged store's pass.
        rows = set(map(tuple, session.exec(select(Page.media_key, Page.ext, Page.width, Page.height))))
    if not rows and media.avif:
        media.mark_avif()  # a new store: every page it gets is written with its AVIF copies
    upgraded = failed = 0
    for key, ext, width, height in sorted(rows):
        if all(media.path(rel).exists() for rel, _ in page_targets(key, width, height, avif=media.avif)):
            continue
        original = media.path(original_path(key, ext))
        try:
            media.store_page(original.read_bytes(), WriteLog())
        except (OSError, MediaError):
            failed += 1  # the original is gone or unreadable: the next import tries again
            continue
        upgraded += 1
    if not failed:
        marker.touch()
    return upgraded


def _hashed_folders(root: Path) -> list[Path]:
    try:
        entries = list(os.scandir(root))
    except FileNotFoundError:
        return []
    return [
        Path(e.path) for e in entries if e.is_dir() and len(e.name) == 2 and _HEX.issuperset(e.name)
    ]
