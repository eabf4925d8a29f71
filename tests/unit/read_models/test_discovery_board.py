"""Rankings and the weekday calendar from the database (read_models/discovery.py,
catalogue/view_history.py) on real SQLite and PostgreSQL: views counted per
day in Japan by the reader's own rule, each period's window and the one
before it, the weekday from stored publication times, and pruning."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from manga_app.catalogue import view_history
from manga_app.catalogue.models import Chapter, Series, SeriesViewDay
from manga_app.core import discovery
from manga_app.core.db import make_engine, migrate
from manga_app.read_models.discovery import compute_board
from manga_app.read_models.held import Snapshot
from manga_app.engagement import view_counts
from tests.postgres import scratch_database
from tests.unit.search.builders import item

# Monday 2026-03-02, 00:00:30 in Japan (still Sunday in UTC).
NOW = datetime(2026, 3, 1, 15, 0, 30, tzinfo=UTC)
TODAY = date(2026, 3, 2)
SECRET = view_counts.hashing_secret("0f" * 32)


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'board.db'}"
        migrate(url)
        engine = make_engine(url)
        yield engine
        engine.dispose()
        return
    with scratch_database("discover_board") as url:
        engine = make_engine(url)
        yield engine
        engine.dispose()


def add_series(session: Session, slug: str, *, views: int = 0, published: list[datetime] = ()) -> int:
    series = Series(slug=slug, title=slug, title_key=slug, search_text=slug, views=views, created_at=NOW, updated_at=NOW)
    session.add(series)
    session.flush()
    for number, moment in enumerate(published or [NOW - timedelta(days=400)], start=1):
        session.add(Chapter(series_id=series.id, number_hundredths=number * 100, published_at=moment, page_count=1))
    session.flush()
    return series.id


def day_views(session: Session, series_id: int, counts: dict[int, int]) -> None:
    """`counts`: days before TODAY -> views on that day."""
    for back, views in counts.items():
        session.add(SeriesViewDay(day=TODAY - timedelta(days=back), series_id=series_id, views=views))


def test_a_counted_view_adds_to_its_day_in_japan_once_per_visitor(engine):
    with Session(engine) as session:
        series_id = add_series(session, "counted")
        chapter_id = session.execute(sa.select(Chapter.id).where(Chapter.series_id == series_id)).scalar_one()
        session.commit()
    visits = [("a", TODAY), ("a", TODAY), ("b", TODAY), ("a", TODAY - timedelta(days=1)), ("c", TODAY)]
    for visitor, day in visits:
        with Session(engine) as session:
            view_counts.record_view(session=session, series_id=series_id, chapter_id=chapter_id,
                                    visitors=[view_counts.visitor_key(SECRET, "b", visitor)], address="", day=day)
    with Session(engine) as session:
        assert view_history.views_between(session=session, first=TODAY, last=TODAY) == {series_id: 3}
        assert view_history.views_between(session=session, first=TODAY - timedelta(days=1), last=TODAY) == {series_id: 4}
        assert session.get(Series, series_id).views == 4


# (series, running total, {days back: views}) and each period's expected
# order of slugs with movements. Windows: day = today; week = 0..6 days back
# (before: 7..13); month = 0..29 (before: 30..59).
SERIES = [
    ("alpha", 500, {0: 3, 1: 9, 6: 1, 7: 50, 29: 2, 30: 40}),
    ("beta", 900, {0: 5, 1: 1, 6: 20, 13: 4, 14: 99, 59: 7, 60: 500}),
    ("gamma", 100, {0: 3, 7: 2, 30: 1}),
    ("delta", 0, {}),
]
EXPECTED = {
    "day": [("beta", 5, "up"), ("alpha", 3, "down"), ("gamma", 3, "new")],
    "week": [("beta", 26, "up"), ("alpha", 13, "down"), ("gamma", 3, "same")],
    "month": [("beta", 129, "up"), ("alpha", 65, "down"), ("gamma", 5, "same")],
    "all": [("beta", 900, "same"), ("alpha", 500, "same"), ("gamma", 100, "same")],
}
# Day before: alpha 9, beta 1 -> alpha 1st, beta 2nd, gamma unranked.
# Week before: alpha 50, beta 4 (13 back; 14 is outside), gamma 2 -> alpha, beta, gamma.
# Month before: alpha 40, beta 7 (59 back; 60 is outside), gamma 1.


@pytest.mark.parametrize("period", discovery.PERIODS)
def test_rankings_of_each_period_with_their_boundaries(engine, period):
    with Session(engine) as session:
        ids = {}
        for slug, total, counts in SERIES:
            ids[slug] = add_series(session, slug, views=total)
            day_views(session, ids[slug], counts)
        session.commit()
        snapshot = Snapshot.build([item(slug, slug=slug) for slug, _, _ in SERIES], (), "v1")
        board = compute_board(session=session, snapshot=snapshot, now=NOW)
    slugs = snapshot.mangas.slugs
    got = [(slugs[r.key], r.views, r.movement) for r in board.ranking(period).places()]
    assert got == EXPECTED[period]
    assert [r.rank for r in board.ranking(period).places()] == list(range(1, len(got) + 1))


def test_the_all_time_movement_is_against_the_totals_before_today(engine):
    with Session(engine) as session:
        first = add_series(session, "first", views=100)  # 99 before today
        second = add_series(session, "second", views=105)  # 95 before today: it passed "first" today
        third = add_series(session, "third", views=50)  # first counted today
        day_views(session, first, {0: 1})
        day_views(session, second, {0: 10})
        day_views(session, third, {0: 50})
        session.commit()
        snapshot = Snapshot.build([item(s, slug=s) for s in ("first", "second", "third")], (), "v1")
        board = compute_board(session=session, snapshot=snapshot, now=NOW)
    got = [(snapshot.mangas.slugs[r.key], r.movement) for r in board.ranking("all").places()]
    assert got == [("second", "up"), ("first", "down"), ("third", "new")]


def jst(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=discovery.JST).astimezone(UTC)


# Publication times as stored; NOW is Monday 3/2 00:00:30 JST.
CALENDAR = [
    ("weekly-monday", "ongoing", [jst(3, 2, 0, 0), jst(2, 23, 0, 10), jst(2, 16, 0, 20), jst(2, 9, 0, 5)], "mon"),
    ("late-sunday", "ongoing", [jst(3, 1, 23, 59), jst(2, 22, 23, 50), jst(2, 15, 23, 55)], "sun"),
    ("friday", "ongoing", [jst(2, 27, 12), jst(2, 20, 12), jst(2, 13, 12), jst(2, 10, 12)], "fri"),
    ("scattered", "ongoing", [jst(2, 27, 12), jst(2, 24, 12), jst(2, 18, 12)], "irregular"),
    ("old-weekly", "ongoing", [jst(1, 5, 12), jst(1, 2, 12), jst(1, 1, 12)], "irregular"),
    ("finished-friday", "completed", [jst(2, 27, 12), jst(2, 20, 12), jst(2, 13, 12)], None),
]


def test_calendar_puts_each_ongoing_series_under_its_usual_weekday(engine):
    with Session(engine) as session:
        for slug, _status, published, _day in CALENDAR:
            add_series(session, slug, published=published)
        session.commit()
        items = [item(slug, slug=slug, status=status) for slug, status, _, _ in CALENDAR]
        snapshot = Snapshot.build(items, (), "v1")
        board = compute_board(session=session, snapshot=snapshot, now=NOW)
    slugs = snapshot.mangas.slugs
    placed = {slugs[index]: day for day, indices in board.calendar.items() for index in indices}
    assert placed == {slug: day for slug, _, _, day in CALENDAR if day}
    assert {slugs[index] for index in board.updated_today} == {"weekly-monday"}


def test_pruning_keeps_exactly_the_days_a_period_reads(engine):
    with Session(engine) as session:
        series_id = add_series(session, f"s-{uuid.uuid4().hex[:6]}")
        day_views(session, series_id, {0: 1, 59: 1, 60: 1, 400: 1})
        session.commit()
        assert view_history.prune_view_days(session=session, today=TODAY) == 2
        days = session.execute(sa.select(SeriesViewDay.day).order_by(SeriesViewDay.day)).scalars().all()
    assert days == [TODAY - timedelta(days=59), TODAY]
