"""The library's figures per series: unread units (lists.unread_range) and
the newest publication, for /library's cards. Keyword-only functions taking
a session; the uid is a verified token's.

Signed in, one aggregate query over the user's follows, their furthest
finished units (reading_progress) and the series' units: the database
counts, nothing per unit comes back. A browser's own library (a visitor
never signed in, at most payloads.MAX_MERGE series) is counted from the
read marks its history holds."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session, col, select

from manga_app.accounts import lists
from manga_app.accounts.models import Follow, ReadingProgress
from manga_app.catalogue.models import Chapter, Series

VS = lists.VOLUME_START
# When a browser's follow of unknown date was added, for sorting (the oldest).
UNKNOWN_ADDED = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class SeriesFigures:
    slug: str
    status: str
    added_at: datetime
    unread: int
    in_volumes: bool
    # The newest unit's publication, and when the reader last opened or read the series.
    latest_published: datetime | None
    seen: tuple[datetime | None, ...]

    @property
    def updated(self) -> bool:
        return lists.has_update(self.latest_published, list(self.seen))


def account_library(*, session: Session, uid: str) -> list[SeriesFigures]:
    """Every follow of `uid`, newest first, with its figures: one query, each
    series' units counted on the chapter index (series, unit, publication)
    between its furthest finished unit and the end of that kind."""
    figures = []
    rows = session.connection().execute(_library_query(session.get_bind().dialect.name), {"uid": uid})
    for slug, status, added, opened, read_at, chapter, volume, in_chapters, in_volumes, newest in rows:
        count, by_volume = lists.unread_of(chapter is not None, volume is not None, in_chapters or 0, in_volumes or 0)
        figures.append(SeriesFigures(slug, status, added, count, by_volume, newest, (added, opened, read_at)))
    return figures


@functools.cache
def _library_query(dialect: str) -> sa.Select:
    """account_library's statement, built once per database kind (the uid is
    a bound parameter). PostgreSQL counts a series' units in one scan of the
    index (a LATERAL aggregate: 8 against 11 ms for 500 series at 100,000 in
    benchmarks/bench_library.py); SQLite has no LATERAL, and its three
    correlated subqueries are its fastest form (a grouped join took twice as
    long there)."""
    rp = ReadingProgress
    number = col(rp.chapter_hundredths)
    uid = sa.bindparam("uid", type_=sa.String)
    far = (
        select(
            col(rp.series_slug).label("slug"),
            sa.func.max(sa.case((sa.and_(col(rp.finished), number < VS), number))).label("chapter"),
            sa.func.max(sa.case((sa.and_(col(rp.finished), number >= VS), number))).label("volume"),
            sa.func.max(col(rp.updated_at)).label("read_at"),
        )
        .where(rp.uid == uid)
        .group_by(col(rp.series_slug))
        .subquery()
    )
    after = sa.func.coalesce(far.c.chapter, far.c.volume, -1)
    before = sa.case((far.c.chapter.is_not(None), VS), else_=lists.BEYOND)
    unit = Chapter.__table__.alias("unit")
    key, mine = unit.c.number_hundredths, unit.c.series_id == col(Series.id)
    in_chapters = sa.and_(key > after, key < VS)
    in_volumes = sa.and_(key > sa.case((after >= VS, after), else_=VS - 1), key < before)
    query = (
        select(Follow.series_slug, Follow.status, Follow.created_at, Follow.opened_at, far.c.read_at, far.c.chapter, far.c.volume)
        .select_from(Follow)
        .outerjoin(Series, col(Series.slug) == col(Follow.series_slug))
        .outerjoin(far, far.c.slug == col(Follow.series_slug))
        .where(Follow.uid == uid)
        .order_by(col(Follow.created_at).desc(), col(Follow.id).desc())
    )
    if dialect == "postgresql":
        units = select(
            sa.func.count().filter(in_chapters).label("chapters"),
            sa.func.count().filter(in_volumes).label("volumes"),
            sa.func.max(unit.c.published_at).label("newest"),
        ).where(mine).lateral("units")
        return query.outerjoin(units, sa.true()).add_columns(units.c.chapters, units.c.volumes, units.c.newest)
    return query.add_columns(
        select(sa.func.count()).where(mine, in_chapters).scalar_subquery(),
        select(sa.func.count()).where(mine, in_volumes).scalar_subquery(),
        select(sa.func.max(unit.c.published_at)).where(mine).scalar_subquery(),
    )


@dataclass(frozen=True)
class BrowserEntry:
    """A series of a browser's own library, with what its history says."""

    slug: str
    status: str
    added_at: datetime | None  # None: added by an older site, when is unknown
    finished: tuple[int, ...]
    read_at: datetime | None


def browser_library(*, session: Session, entries: list[BrowserEntry]) -> list[SeriesFigures]:
    """The figures of a browser's library (in the order given)."""
    if not entries:
        return []
    rows = session.exec(
        select(Series.slug, Chapter.number_hundredths, Chapter.published_at)
        .join(Chapter, col(Chapter.series_id) == col(Series.id))
        .where(col(Series.slug).in_([entry.slug for entry in entries]))
    )
    units: dict[str, list[tuple[int, datetime]]] = {}
    for slug, key, published in rows:
        units.setdefault(slug, []).append((key, published))
    figures = []
    for entry in entries:
        mine = units.get(entry.slug, [])
        span = lists.unread_range(entry.finished)
        chapters = sum(1 for key, _ in mine if span.counts(key) and key < VS)
        volumes = sum(1 for key, _ in mine if span.counts(key) and key >= VS)
        any_chapter = any(key < VS for key in entry.finished)
        count, in_volumes = lists.unread_of(any_chapter, not any_chapter and bool(entry.finished), chapters, volumes)
        latest = max((published for _, published in mine), default=None)
        figures.append(SeriesFigures(entry.slug, entry.status, entry.added_at or UNKNOWN_ADDED, count, in_volumes, latest,
                                     (entry.added_at, entry.read_at)))
    return figures


def series_units(*, session: Session, slug: str) -> tuple[str, list[int]] | None:
    """(series status, every unit key) of a series; None when unknown."""
    status = session.exec(select(Series.status).where(Series.slug == slug)).first()
    if status is None:
        return None
    keys = session.exec(select(Chapter.number_hundredths).join(Series, col(Series.id) == col(Chapter.series_id))
                        .where(Series.slug == slug))
    return status, list(keys)
