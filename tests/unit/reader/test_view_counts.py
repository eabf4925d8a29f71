"""Chapter views counted on the server, on real SQLite and PostgreSQL: once
per visitor, chapter and day, whatever tabs, reloads or repeated events say;
again on a new day; an address capped; old marks pruned."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from manga_app.engagement import view_counts
from manga_app.catalogue.models import Chapter, Series
from manga_app.engagement.models import ChapterViewMark
from tests.unit.reader.engagement_db import SECRET, TODAY, account, browser, db_url, engine, series_chapter  # noqa: F401


@pytest.fixture
def chapter(series_chapter) -> tuple[int, int]:
    return series_chapter


def views(engine, chapter: tuple[int, int]) -> tuple[int, int]:
    with Session(engine) as session:
        series = session.get(Series, chapter[0])
        row = session.get(Chapter, chapter[1])
        return series.views, row.views


def record(engine, chapter, visitors, *, day=TODAY, address="", cap=view_counts.MAX_VIEWS_PER_ADDRESS) -> bool:
    with Session(engine) as session:
        return view_counts.record_view(
            session=session, series_id=chapter[0], chapter_id=chapter[1], visitors=visitors, address=address, day=day,
            max_per_address=cap,
        )


def test_a_visitor_counts_once_a_day_and_again_the_next_day(engine, chapter):
    assert record(engine, chapter, [browser("tab")])
    assert not record(engine, chapter, [browser("tab")])  # a reload, a second tab, a repeated event
    assert views(engine, chapter) == (1, 1)
    assert record(engine, chapter, [browser("other")])  # another visitor
    assert record(engine, chapter, [browser("tab")], day=TODAY + timedelta(days=1))
    assert views(engine, chapter) == (3, 3)


def test_a_signed_in_reader_counts_once_across_devices_and_browsers(engine, chapter):
    assert record(engine, chapter, [browser("phone"), account("uid-1")])
    # The same account on a laptop: its browser is new, the account is not.
    assert not record(engine, chapter, [browser("laptop"), account("uid-1")])
    # That laptop signed out afterwards: its browser has seen the chapter.
    assert not record(engine, chapter, [browser("laptop")])
    assert views(engine, chapter) == (1, 1)


def test_no_visitor_key_counts_nothing(engine, chapter):
    assert not record(engine, chapter, [])
    assert not record(engine, chapter, [""])
    assert views(engine, chapter) == (0, 0)


def test_an_address_counts_only_so_many_visitors_a_day(engine, chapter):
    address = view_counts.address_key(SECRET, "203.0.113.7")
    counted = [record(engine, chapter, [browser(f"script-{index}")], address=address, cap=3) for index in range(6)]
    assert counted == [True, True, True, False, False, False]
    # Another address, and the same one the next day, are not held back.
    assert record(engine, chapter, [browser("neighbour")], address=view_counts.address_key(SECRET, "198.51.100.1"), cap=3)
    assert record(engine, chapter, [browser("script-9")], address=address, cap=3, day=TODAY + timedelta(days=1))
    assert views(engine, chapter) == (5, 5)


def test_concurrent_tabs_count_one_view(engine, chapter):
    start = threading.Barrier(6)
    results: list[bool] = []

    def open_tab() -> None:
        start.wait()
        results.append(record(engine, chapter, [browser("same-browser")]))

    threads = [threading.Thread(target=open_tab) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == [False] * 5 + [True]
    assert views(engine, chapter) == (1, 1)


def test_identifiers_are_stored_only_as_keyed_hashes(engine, chapter):
    record(engine, chapter, [browser("visible-id"), account("visible-uid")], address=view_counts.address_key(SECRET, "192.0.2.5"))
    with Session(engine) as session:
        rows = session.execute(sa.select(ChapterViewMark.visitor, ChapterViewMark.address).where(ChapterViewMark.chapter_id == chapter[1])).all()
    stored = " ".join(value for row in rows for value in row)
    assert len(rows) == 2
    assert "visible" not in stored and "192.0.2.5" not in stored
    assert view_counts.visitor_key(SECRET, "b", "x") != view_counts.visitor_key(view_counts.hashing_secret("1e" * 32), "b", "x")


def test_marks_older_than_yesterday_are_pruned(engine, chapter):
    for days_ago in (0, 1, 2, 5):
        record(engine, chapter, [browser(f"old-{days_ago}")], day=TODAY - timedelta(days=days_ago))
    with Session(engine) as session:
        view_counts.prune_views(session=session, today=TODAY)
        days = session.execute(sa.select(ChapterViewMark.day).where(ChapterViewMark.chapter_id == chapter[1])).scalars().all()
    assert sorted(days) == [TODAY - timedelta(days=1), TODAY]
    # Counted views are not touched by pruning.
    assert views(engine, chapter) == (4, 4)


def test_a_deleted_chapter_takes_its_marks_along(engine, chapter):
    record(engine, chapter, [browser("gone")])
    with Session(engine) as session:
        session.delete(session.get(Chapter, chapter[1]))
        session.commit()
        left = session.execute(sa.select(sa.func.count()).where(ChapterViewMark.chapter_id == chapter[1])).scalar_one()
    assert left == 0


def test_the_address_cap_is_the_deployments_setting(engine, chapter, monkeypatch):
    """VISITORS_PER_ADDRESS sets how many visitors of one address count
    (the e2e suite's thousands of fresh browsers all come from 127.0.0.1)."""
    from manga_app.core import config

    with Session(engine) as session:
        slug = session.get(Series, chapter[0]).slug
    monkeypatch.setattr(view_counts, "shared_engine", lambda: engine)
    monkeypatch.setenv("CONTENT_KEY", "8d3f61a2c4e9b07d15f2a8c63e90d4b7" * 2)
    monkeypatch.setenv("VISITORS_PER_ADDRESS", "2")
    config.get_settings.cache_clear()
    try:
        counted = [view_counts.count_chapter_view(slug, "1", browser_id=f"browser-{index}-xxxxxxxxxxxx", uid="",
                                                  address="192.0.2.7", day=TODAY) for index in range(3)]
        assert counted == [True, True, False] and views(engine, chapter) == (2, 2)
        monkeypatch.setenv("VISITORS_PER_ADDRESS", "60")
        config.get_settings.cache_clear()
        assert all(view_counts.count_chapter_view(slug, "1", browser_id=f"browser-{index}-xxxxxxxxxxxx", uid="",
                                                  address="192.0.2.7", day=TODAY) for index in range(3, 58))
        assert views(engine, chapter) == (57, 57)
    finally:
        config.get_settings.cache_clear()
