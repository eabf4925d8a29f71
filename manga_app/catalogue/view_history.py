"""Views per series and day (models.SeriesViewDay) and the other rows the
ranking and the weekday calendar read. Queries take the session; the rules
that turn these rows into rankings and weekdays are core/discovery.py."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session

from manga_app.catalogue.models import Chapter, Series, SeriesViewDay
from manga_app.core.discovery import KEEP_VIEW_DAYS

__all__ = ["SeriesRow", "add_day_view", "prune_view_days", "publication_times", "series_rows", "views_between"]


# One statement for both engines (SQLite and PostgreSQL spell the upsert alike),
# built once: dialect.insert(...).on_conflict_do_update(...) built per call is
# compiled anew each time (its SET expression is not cached), 2.3 ms a view
# against 0.27 ms for this on SQLite (measured in a loop of 3,000 upserts).
_ADD_DAY_VIEW = sa.text(
    "INSERT INTO series_view_day (day, series_id, views) VALUES (:day, :series_id, 1)"
    " ON CONFLICT (day, series_id) DO UPDATE SET views = series_view_day.views + 1"
).bindparams(sa.bindparam("day", type_=sa.Date), sa.bindparam("series_id", type_=sa.Integer))


def add_day_view(*, session: Session, series_id: int, day: date) -> None:
    """One counted view of the series on `day`: a single upsert on the day's key."""
    session.execute(_ADD_DAY_VIEW, {"day": day, "series_id": series_id})


def views_between(*, session: Session, first: date, last: date) -> dict[int, int]:
    """Views per series id counted from `first` to `last`, both included."""
    query = (
        sa.select(SeriesViewDay.series_id, sa.func.sum(SeriesViewDay.views))
        .where(SeriesViewDay.day >= first, SeriesViewDay.day <= last)
        .group_by(SeriesViewDay.series_id)
    )
    return {series_id: int(views) for series_id, views in session.execute(query)}


def prune_view_days(*, session: Session, today: date, keep_days: int = KEEP_VIEW_DAYS) -> int:
    """Forget the days no period reads (older than `keep_days` days); returns rows removed."""
    cutoff = today - timedelta(days=keep_days - 1)
    result = session.execute(sa.delete(SeriesViewDay).where(SeriesViewDay.day < cutoff))
    session.commit()
    return result.rowcount or 0


@dataclass(frozen=True)
class SeriesRow:
    """What the ranking and calendar need of every series."""

    id: int
    slug: str
    views: int
    status: str


def series_rows(*, session: Session) -> list[SeriesRow]:
    query = sa.select(Series.id, Series.slug, Series.views, Series.status)
    return [SeriesRow(*row) for row in session.execute(query)]


def publication_times(*, session: Session, since: datetime) -> dict[int, list[datetime]]:
    """Publication times of the chapters out since `since`, per series id."""
    query = sa.select(Chapter.series_id, Chapter.published_at).where(Chapter.published_at >= since)
    found: dict[int, list[datetime]] = defaultdict(list)
    for series_id, published in session.execute(query):
        found[series_id].append(published)
    return dict(found)
