"""The held board (read_models/discovery.py HeldBoard) on a real published
catalogue and database: no request waits for a computation. Before the first
board the pages get an empty one marked pending (集計中) with every genre
known; once computed it is served, and its generation (the server-rendered
pages' cache key) moves on."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime

from manga_app.read_models import discovery
from manga_app.read_models.held import Snapshot
from tests.unit.search.builders import item


def test_a_request_is_answered_while_the_first_board_is_computed(catalogue, monkeypatch):
    release = threading.Event()
    compute = discovery._compute

    def held_back(snapshot):  # the real computation, let go only once the first request has its answer
        assert release.wait(30)
        return compute(snapshot)

    monkeypatch.setattr(discovery, "_compute", held_back)
    held = discovery.HeldBoard()

    async def scenario():
        first = await asyncio.wait_for(held.board(), 10)
        running = held._task
        again = await asyncio.wait_for(held.board(), 10)
        release.set()
        await running
        return first, again, running, held._task, await held.board()

    first, again, running, task_after, board = asyncio.run(scenario())
    assert first.pending and again is first and task_after is running  # one computation, not one per request
    assert len(first.ranking(discovery.discovery.DAY)) == 0 and list(first.calendar["irregular"]) == []
    assert not board.pending and board is not first and held.generation == 1
    assert len(board.calendar["irregular"]) > 0


def test_warm_up_computes_the_board_at_start(catalogue):
    held = discovery.HeldBoard()

    async def scenario():
        discovery._HELD = held
        try:
            await discovery.warm_up()
            return await held.board()
        finally:
            discovery._HELD = None

    board = asyncio.run(scenario())
    assert not board.pending and held.generation == 1


def test_the_empty_board_knows_every_genre_so_no_genre_ranking_is_a_404_meanwhile():
    snapshot = Snapshot.build([item("ワンピース", genres=("冒険", "少年")), item("ハイキュー", genres=("スポーツ",))], (), "v1")
    board = discovery.empty_board(snapshot, datetime.now(UTC))
    assert board.pending
    assert all(discovery.known_genre(board, name) for name in ("冒険", "少年", "スポーツ"))
    assert not discovery.known_genre(board, "存在しないジャンル")
    listing = discovery.ranking_listing(board, discovery.discovery.WEEK, "冒険", 1, 30)
    assert (listing.items, listing.total, listing.pages) == ([], 0, 1)


def test_a_genre_imported_after_the_board_was_computed_is_known_before_the_board_follows():
    before = Snapshot.build([item("ワンピース", genres=("冒険",))], (), "v1")
    now = Snapshot.build([item("ワンピース", genres=("冒険",)), item("ハイキュー", genres=("スポーツ",))], (), "v2")
    board = discovery.empty_board(before, datetime.now(UTC))
    assert not discovery.known_genre(board, "スポーツ")
    assert discovery.known_genre(board, "スポーツ", now) and not discovery.known_genre(board, "存在しないジャンル", now)
