"""Assertions shared by the importer tests."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.models import Chapter, Page, Series


def media_keys_on_disk(root: Path) -> set[str]:
    """Keys of the media files (in the hashed folders; the import lock sits at the top)."""
    return {path.name[:64] for path in root.rglob("*") if path.is_file() and path.parent != root}


def media_keys_in_db(engine: sa.Engine) -> set[str]:
    with Session(engine) as session:
        pages = set(session.exec(select(Page.media_key)))
        covers = {key for key in session.exec(select(Series.cover_key)) if key}
    return pages | covers


def assert_no_orphan_media(engine: sa.Engine, root: Path) -> None:
    """Every file in the media store belongs to a row, and no temp file is left."""
    leftovers = [p for p in root.rglob(".tmp-*")] if root.exists() else []
    assert leftovers == []
    on_disk = media_keys_on_disk(root) if root.exists() else set()
    assert on_disk == media_keys_in_db(engine)


def chapter_rows(engine: sa.Engine) -> list[tuple[str, int, int]]:
    """(series title, chapter number in hundredths, page rows) for every chapter."""
    with Session(engine) as session:
        rows = session.exec(
            select(Series.title, Chapter.number_hundredths, sa.func.count(Page.id))
            .join(Chapter, Chapter.series_id == Series.id)
            .join(Page, Page.chapter_id == Chapter.id, isouter=True)
            .group_by(Series.title, Chapter.number_hundredths)
            .order_by(Series.title, Chapter.number_hundredths)
        )
        return [tuple(row) for row in rows]
