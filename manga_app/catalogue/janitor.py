"""Removing media an import no longer needs, without ever removing what a row uses.

The importer writes media before it commits, and several chapters are in
flight at once (two may share a page), so files of a failed chapter, or of
a page a changed chapter dropped, are only queued here and removed later,
once nothing is in flight, and only when no committed page or cover uses them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.models import Page, Series

__all__ = ["Janitor"]


class Janitor:
    """Media files waiting to be removed unless a committed row uses them.

    `warnings` receives (owner, message) when a file cannot be removed.
    """

    def __init__(
        self, engine: sa.Engine, media: MediaStore, warnings: list[tuple[Path, str]]
    ) -> None:
        self.engine, self.media, self.warnings = engine, media, warnings
        self.files: dict[Path, Path] = {}  # file -> the candidate it is removed for
        self.keys: dict[str, Path] = {}  # every file of a media key -> the candidate

    def __bool__(self) -> bool:
        return bool(self.files or self.keys)

    def discard_files(self, paths: Iterable[Path], owner: Path) -> None:
        for path in paths:
            self.files.setdefault(path, owner)

    def discard_keys(self, keys: Iterable[str], owner: Path) -> None:
        for key in keys:
            self.keys.setdefault(key, owner)

    def flush(self) -> None:
        if not self:
            return
        wanted = set(self.keys) | {path.name[:64] for path in self.files}
        page_keys, cover_keys = self._in_use(wanted)
        for key, owner in self.keys.items():
            if key not in page_keys and key not in cover_keys:
                self._remove(owner, key, lambda key=key: self.media.remove_image(key))
        for path, owner in self.files.items():
            key, variant = path.name[:64], path.name[64:]
            if variant.startswith("-cover"):
                needed = key in cover_keys
            elif variant.startswith("-w"):
                needed = key in page_keys
            else:
                needed = key in page_keys or key in cover_keys
            if not needed:
                self._remove(owner, key, lambda path=path: _unlink(path))
        self.files.clear()
        self.keys.clear()

    def _in_use(self, keys: set[str]) -> tuple[set[str], set[str]]:
        pages: set[str] = set()
        covers: set[str] = set()
        ordered = sorted(keys)
        with Session(self.engine) as session:
            for start in range(0, len(ordered), 500):
                chunk = ordered[start : start + 500]
                pages.update(
                    session.exec(select(Page.media_key).where(Page.media_key.in_(chunk)).distinct())
                )
                covers.update(
                    session.exec(select(Series.cover_key).where(Series.cover_key.in_(chunk)))
                )
        return pages, covers

    def _remove(self, owner: Path, key: str, action: Callable[[], None]) -> None:
        try:
            action()
        except (OSError, ValueError) as exc:
            self.warnings.append((owner, f"could not remove old media {key}: {exc}"))


def _unlink(path: Path) -> None:
    path.unlink(missing_ok=True)
    try:
        path.parent.rmdir()
    except OSError:
        pass  # not empty, or already gone
