"""The rankings board computed in a process of its own (read_models/board_process.py)
is the board the web worker computed itself, on real SQLite and PostgreSQL:
every period's ranking (order, views, movement), each genre's, the calendar
and today's updates."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session

from manga_app.core import discovery
from manga_app.read_models import board_process
from manga_app.read_models.discovery import Board, compute_board
from manga_app.read_models.held import Snapshot
from tests.unit.read_models.test_discovery_board import NOW, SERIES, add_series, day_views, engine  # noqa: F401
from tests.unit.search.builders import item


def _seen(board: Board) -> dict:
    rankings = {(period, genre): [(r.key, r.views, r.rank, r.movement) for r in board.ranking(period, genre).places()]
                for period in discovery.PERIODS for genre in ["", *board.genre_members]}
    calendar = {day: list(ids) for day, ids in board.calendar.items()}
    return {"rankings": rankings, "calendar": calendar, "today": set(board.updated_today),
            "genres": dict(board.genre_members)}


def test_the_board_of_the_child_process_is_the_board_computed_in_the_worker(engine):  # noqa: F811
    genres = ("冒険", "少年", "日常")
    with Session(engine) as session:
        for number, (slug, total, counts) in enumerate(SERIES):
            weekly = [NOW - timedelta(weeks=week, hours=number) for week in range(4)] if number % 2 else []
            day_views(session, add_series(session, slug, views=total, published=weekly), counts)
        session.commit()
        items = [item(slug, slug=slug, genres=genres[: 1 + number % 3], status="ongoing")
                 for number, (slug, _, _) in enumerate(SERIES)]
        snapshot = Snapshot.build(items, (), "v1")
        here = compute_board(session=session, snapshot=snapshot, now=NOW)
    url = engine.url.render_as_string(hide_password=False)
    there = Board(snapshot, NOW, **board_process.compute(board_process.Columns.of(snapshot.mangas), url, NOW))
    assert _seen(there) == _seen(here)
    assert any(_seen(here)["rankings"].values()) and any(_seen(here)["calendar"].values())


def test_a_failed_child_says_why(tmp_path):
    columns = board_process.Columns.of(Snapshot.build([item("a", slug="a")], (), "v1").mangas)
    missing = f"sqlite:///{tmp_path / 'empty.db'}"  # no tables: never migrated
    try:
        board_process.compute(columns, missing, NOW)
    except board_process.BoardProcessError as error:
        assert "no such table" in str(error)  # the child's own error, for the log
    else:
        raise AssertionError("a child that cannot read its database must fail")
