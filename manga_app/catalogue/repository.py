"""Catalogue queries: keyword-only functions that take the session.

Called by the web layer, the publisher and the importer alike, so each query
lives here once. Listing order is "newest update first" (updated_at, then id,
both descending) everywhere, and only series with at least one chapter are
listed: a series without chapters has nothing to read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date
from decimal import Decimal

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import view_history
from manga_app.catalogue.models import Chapter, Genre, Page, Series, SeriesGenre
from manga_app.catalogue.naming import to_hundredths

__all__ = [
    "add_view",
    "chapter_by_fingerprint",
    "chapter_by_source",
    "chapter_stats",
    "chapters_of",
    "count_series",
    "genre_totals",
    "genres_by_series",
    "get_chapter",
    "get_series",
    "iter_series_batches",
    "list_series_page",
    "media_key_in_use",
    "pages_of",
]

_HAS_CHAPTERS = sa.exists().where(Chapter.series_id == Series.id)
_NEWEST_FIRST = (Series.updated_at.desc(), Series.id.desc())


def get_series(*, session: Session, slug: str) -> Series | None:
    return session.exec(select(Series).where(Series.slug == slug)).first()


def count_series(*, session: Session) -> int:
    return session.exec(select(sa.func.count()).select_from(Series).where(_HAS_CHAPTERS)).one()


def list_series_page(*, session: Session, page: int, page_size: int) -> list[Series]:
    """Page `page` (from 1) of listed series, newest update first; [] past the end."""
    if page < 1 or page_size < 1:
        return []
    query = select(Series).where(_HAS_CHAPTERS).order_by(*_NEWEST_FIRST)
    return list(session.exec(query.offset((page - 1) * page_size).limit(page_size)))


def iter_series_batches(*, session: Session, batch_size: int) -> Iterator[list[Series]]:
    """All listed series, newest first, in batches, by keyset (no OFFSET scans at 100,000 rows)."""
    last: tuple | None = None
    while True:
        query = select(Series).where(_HAS_CHAPTERS).order_by(*_NEWEST_FIRST).limit(batch_size)
        if last is not None:
            updated_at, series_id = last
            query = query.where(
                sa.or_(
                    Series.updated_at < updated_at,
                    sa.and_(Series.updated_at == updated_at, Series.id < series_id),
                )
            )
        batch = list(session.exec(query))
        if not batch:
            return
        yield batch
        last = (batch[-1].updated_at, batch[-1].id)


def genre_totals(*, session: Session) -> list[tuple[str, int]]:
    """(name, number of listed series) for genres in use with a non-empty name; largest first."""
    total = sa.func.count(SeriesGenre.series_id)
    query = (
        select(Genre.name, total)
        .join(SeriesGenre, SeriesGenre.genre_id == Genre.id)
        .join(Series, Series.id == SeriesGenre.series_id)
        .where(_HAS_CHAPTERS, sa.func.trim(Genre.name) != "")
        .group_by(Genre.name)
        .having(total > 0)
        .order_by(total.desc(), Genre.name)
    )
    return [(name, count) for name, count in session.exec(query)]


def people_and_tags(*, session: Session) -> tuple[list[str], list[str]]:
    """The distinct non-empty names of listed series' authors and artists, and
    of their tags, each sorted (the author and tag pages that exist)."""
    people: set[str] = set()
    tags: set[str] = set()
    query = select(Series.authors, Series.artists, Series.tags).where(_HAS_CHAPTERS)
    for authors, artists, series_tags in session.exec(query.execution_options(yield_per=2_000)):
        people.update(name.strip() for name in (*(authors or ()), *(artists or ())) if isinstance(name, str))
        tags.update(name.strip() for name in series_tags or () if isinstance(name, str))
    return sorted(people - {""}), sorted(tags - {""})


def genres_by_series(*, session: Session, series_ids: Iterable[int]) -> dict[int, list[str]]:
    ids = list(series_ids)
    result: dict[int, list[str]] = {series_id: [] for series_id in ids}
    if not ids:
        return result
    query = (
        select(SeriesGenre.series_id, Genre.name)
        .join(Genre, Genre.id == SeriesGenre.genre_id)
        .where(SeriesGenre.series_id.in_(ids))
        .order_by(SeriesGenre.series_id, Genre.name)
    )
    for series_id, name in session.exec(query):
        result[series_id].append(name)
    return result


def chapter_stats(*, session: Session, series_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """series id -> (key of the latest unit, count of units).

    The latest unit is the highest-numbered chapter; a series of volumes
    only has its highest volume's key (see routes.VOLUME_KEY).
    """
    ids = list(series_ids)
    if not ids:
        return {}
    number = Chapter.number_hundredths
    query = (
        select(
            Chapter.series_id,
            sa.func.max(sa.case((Chapter.kind == "chapter", number))),
            sa.func.max(number),
            sa.func.count(Chapter.id),
        )
        .where(Chapter.series_id.in_(ids))
        .group_by(Chapter.series_id)
    )
    return {
        series_id: (chapter if chapter is not None else latest, count)
        for series_id, chapter, latest, count in session.exec(query)
    }


def get_chapter(
    *, session: Session, series_slug: str, number: Decimal | str | int | float
) -> Chapter | None:
    """The chapter `number` (e.g. '10.5') of a series; None when either is unknown or malformed."""
    try:
        hundredths = to_hundredths(number)
    except ValueError:
        return None
    query = (
        select(Chapter)
        .join(Series, Series.id == Chapter.series_id)
        .where(Series.slug == series_slug, Chapter.number_hundredths == hundredths)
    )
    return session.exec(query).first()


def chapters_of(*, session: Session, series_id: int) -> list[Chapter]:
    """Chapters in reading order (ascending number)."""
    query = (
        select(Chapter).where(Chapter.series_id == series_id).order_by(Chapter.number_hundredths)
    )
    return list(session.exec(query))


def pages_of(*, session: Session, chapter_id: int) -> list[Page]:
    return list(
        session.exec(select(Page).where(Page.chapter_id == chapter_id).order_by(Page.index))
    )


def chapter_by_fingerprint(*, session: Session, fingerprint: str) -> Chapter | None:
    """A chapter imported from a source with this content hash (the oldest, if several)."""
    return session.exec(
        select(Chapter).where(Chapter.fingerprint == fingerprint).order_by(Chapter.id)
    ).first()


def chapter_by_source(*, session: Session, source_path: str) -> Chapter | None:
    """The chapter imported from this file or folder (absolute path), if any."""
    return session.exec(
        select(Chapter).where(Chapter.source_path == source_path).order_by(Chapter.id)
    ).first()


def media_key_in_use(*, session: Session, key: str) -> bool:
    in_pages = session.exec(select(Page.id).where(Page.media_key == key).limit(1)).first()
    return (
        in_pages is not None
        or session.exec(select(Series.id).where(Series.cover_key == key).limit(1)).first()
        is not None
    )


def add_view(*, session: Session, series_id: int, chapter_id: int | None = None, day: date | None = None) -> None:
    """Count one view atomically in SQL (no read-modify-write race between
    workers): the running totals and, given the day in Japan, that day's count."""
    session.execute(sa.update(Series).where(Series.id == series_id).values(views=Series.views + 1))
    if chapter_id is not None:
        session.execute(
            sa.update(Chapter).where(Chapter.id == chapter_id).values(views=Chapter.views + 1)
        )
    if day is not None:
        view_history.add_day_view(session=session, series_id=series_id, day=day)
    session.commit()
