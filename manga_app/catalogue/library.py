"""Edits of the library as a whole: remove, move or renumber units, merge series.

Used by the importer (the source tree is the truth: a deleted file's unit is
removed, a renamed or moved file's unit follows it) and by the operator CLI
(`remove`, `renumber`, `merge-series`). Nothing here commits: the caller
owns the transaction, so several edits land together or not at all, and
publishes once afterwards. Each function returns the media keys its edit
may have orphaned, for the janitor (which keeps whatever a row still uses).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import MAX_UNIT_KEY, describe_unit
from manga_app.catalogue.repository import genres_by_series
from manga_app.catalogue.upsert import SeriesFacts, merge_series_facts, refresh_updated_at, unit_slug

__all__ = [
    "PARKED_KEY",
    "EditError",
    "gone_from_source",
    "merge_series",
    "move_unit",
    "parked",
    "remove_units",
]


# Where a unit waits whose number a renamed file took before the unit's own
# renamed file was met (past every volume and chapter key, one per unit id).
# The importer removes units still parked when it ends: their content is gone.
PARKED_KEY = int(MAX_UNIT_KEY) * 100


class EditError(ValueError):
    """The edit cannot be made as asked; the message says why (English, for the operator)."""


def gone_from_source(*, session: Session, root: Path, seen: Iterable[Path]) -> list[Chapter]:
    """Units imported from under `root` whose file or folder is gone and was not seen by this scan."""
    prefix = str(root).rstrip(os.sep) + os.sep
    seen_paths = {str(path) for path in seen}
    query = select(Chapter).where(Chapter.source_path.startswith(prefix, autoescape=True))
    return [
        chapter
        for chapter in session.exec(query.order_by(Chapter.source_path))
        if chapter.source_path not in seen_paths and not os.path.exists(chapter.source_path)
    ]


def parked(*, session: Session) -> list[Chapter]:
    """Units still parked by move_unit."""
    return list(session.exec(select(Chapter).where(Chapter.number_hundredths >= PARKED_KEY)))


def remove_units(*, session: Session, chapters: Iterable[Chapter]) -> set[str]:
    """Delete these units and their pages; their series' update time follows."""
    chapters = list(chapters)
    ids = [chapter.id for chapter in chapters]
    if not ids:
        return set()
    keys = set(session.exec(select(Page.media_key).where(Page.chapter_id.in_(ids))))
    series_ids = {chapter.series_id for chapter in chapters}
    session.execute(sa.delete(Page).where(Page.chapter_id.in_(ids)))
    session.execute(sa.delete(Chapter).where(Chapter.id.in_(ids)))
    session.flush()
    for series in session.exec(select(Series).where(Series.id.in_(series_ids))):
        keys |= _settle_series(session, series)
    return keys


def move_unit(
    *,
    session: Session,
    chapter: Chapter,
    series: Series,
    key: int,
    kind: str,
    displaced: Callable[[Chapter], bool] = lambda _unit: False,
) -> set[str]:
    """Give a unit another number, kind or series, keeping its id, views and pages.

    When the target already has a unit with that number: if `displaced` says
    that unit's own file now holds something else (renames that shift
    numbers, or swap them), it is parked (see PARKED_KEY) until its own file
    is met; otherwise EditError. Does not commit.
    """
    taken = session.exec(
        select(Chapter).where(
            Chapter.series_id == series.id, Chapter.number_hundredths == key, Chapter.id != chapter.id
        )
    ).first()
    if taken is not None and displaced(taken):
        taken.number_hundredths = PARKED_KEY + taken.id
        session.flush()
    elif taken is not None:
        raise EditError(
            f"'{series.title}' already has {describe_unit(key)} "
            f"(from {taken.source_path or 'no file'}); remove or renumber it first"
        )
    old_series_id = chapter.series_id
    chapter.series_id, chapter.number_hundredths, chapter.kind = series.id, key, kind
    chapter.slug = unit_slug(kind, chapter.slug)
    session.flush()
    refresh_updated_at(session=session, series=series)
    keys: set[str] = set()
    if old_series_id != series.id:
        keys = _settle_series(session, session.get(Series, old_series_id))
    return keys


def merge_series(*, session: Session, source: Series, target: Series) -> set[str]:
    """Move every unit of `source` into `target`, which gains its titles, people and views.

    EditError (nothing changed) when both have a unit with the same number.
    """
    if source.id == target.id:
        raise EditError(f"'{source.title}' cannot be merged into itself")
    own = dict(session.exec(select(Chapter.number_hundredths, Chapter.id).where(Chapter.series_id == target.id)).all())
    theirs = list(session.exec(select(Chapter).where(Chapter.series_id == source.id).order_by(Chapter.number_hundredths)))
    clashes = [describe_unit(chapter.number_hundredths) for chapter in theirs if chapter.number_hundredths in own]
    if clashes:
        raise EditError(
            f"both '{source.title}' and '{target.title}' have {', '.join(clashes)}; "
            "remove or renumber those units first"
        )
    session.execute(sa.update(Chapter).where(Chapter.series_id == source.id).values(series_id=target.id))
    genres = genres_by_series(session=session, series_ids=[source.id])[source.id]
    facts = SeriesFacts(
        aliases=(source.title, *source.alt_titles),
        authors=tuple(source.authors),
        artists=tuple(source.artists),
        genres=tuple(genres),
        tags=tuple(source.tags),
        summary=None if target.summary else source.summary,
    )
    merge_series_facts(session=session, series=target, facts=facts)
    target.views += source.views
    target.cover_key = target.cover_key or source.cover_key
    session.flush()
    refresh_updated_at(session=session, series=target)
    return _settle_series(session, source)


def _settle_series(session: Session, series: Series | None) -> set[str]:
    """A series left without units is removed (its cover freed); else its update time follows."""
    if series is None:
        return set()
    if session.exec(select(Chapter.id).where(Chapter.series_id == series.id).limit(1)).first():
        refresh_updated_at(session=session, series=series)
        return set()
    cover = {series.cover_key} if series.cover_key else set()
    session.delete(series)
    session.flush()
    return cover
