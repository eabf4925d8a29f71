"""The rankings and the weekday calendar, held once per process like the
catalogue, recomputed from the database every REFRESH_SECONDS in a process
of its own (board_process.py).

Why held and not one query per request: a month's ranking adds up every
series' daily counts of 30 days (millions of rows at 100,000 series), far
beyond a page's 20 ms; recomputed here every few minutes it costs the
database one pass per process, and a page is a slice of a sorted list.
Why not published with the lists: views arrive all day long, while the
lists are published when the library changes.

Series are those of the held catalogue (what the cards show); the rules are
core/discovery.py."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlmodel import Session

from manga_app.catalogue import view_history
from manga_app.core import discovery
from manga_app.core.db import shared_engine
from manga_app.core.heap import freeze_long_lived
from manga_app.read_models import board_process
from manga_app.read_models.compact import STATUSES, Catalogue, MangaItem
from manga_app.read_models.held import Snapshot, held_catalogue

logger = logging.getLogger(__name__)

REFRESH_SECONDS = 300.0
_ONGOING = STATUSES.index("ongoing")


@dataclass
class Board:
    """One computation: per period the views of now and of the period
    before; per calendar tab the catalogue ids of its series, latest update
    first. Ids are the held catalogue's (`snapshot.mangas`)."""

    snapshot: Snapshot
    now: datetime
    periods: dict[str, tuple[dict[int, int], dict[int, int]]]
    calendar: dict[str, list[int]]
    updated_today: frozenset[int]
    genre_members: dict[str, frozenset[int]]
    pending: bool = False  # an empty board served while the first is computed
    _rankings: dict[tuple[str, str], discovery.Ranking] = field(default_factory=dict)
    _orders: dict[str, tuple[array, array]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def ranking(self, period: str, genre: str = "") -> discovery.Ranking:
        """The period's ranking (of one genre's series, given its name), computed once per board."""
        key = (period, genre)
        found = self._rankings.get(key)
        if found is None:
            current, previous = self.periods[period]
            orders = self._orders.get(period)
            if orders is None:
                tie = _TieBySlug(self.snapshot.mangas)
                orders = self._orders[period] = (discovery.order(current, tie), discovery.order(previous, tie))
            keep = self.genre_members.get(genre, frozenset()) if genre else None
            found = discovery.rank_within(*orders, current, keep=keep)
            with self._lock:
                self._rankings[key] = found
        return found


@dataclass(frozen=True)
class Listing:
    """One page of a ranking or a calendar day: its series (with their
    places, or whether they came out today), the number of series and pages."""

    items: list[tuple[MangaItem, discovery.Ranked | bool]]  # (title, slug) for ranking_names
    total: int
    page: int
    pages: int


def _listing(total: int, page: int, per_page: int, chosen, item_of) -> Listing:
    """`chosen(start, stop)`: the entries of one page."""
    pages = max(1, -(-total // per_page))
    page = min(max(1, page), pages)
    return Listing([item_of(entry) for entry in chosen((page - 1) * per_page, page * per_page)], total, page, pages)


def known_genre(board: Board, genre: str, snapshot: Snapshot | None = None) -> bool:
    """A genre the board ranks, or one of `snapshot` (the catalogue now) that a
    board computed before the last import does not know yet: ranked empty until
    the board follows, never a 404 meanwhile."""
    return genre in board.genre_members or (snapshot is not None and genre in snapshot.mangas.genre_names)


def ranking_listing(board: Board, period: str, genre: str, page: int, per_page: int) -> Listing:
    catalogue, ranking = board.snapshot.mangas, board.ranking(period, genre)
    return _listing(len(ranking), page, per_page, ranking.places, lambda ranked: (catalogue.item(ranked.key), ranked))


def ranking_names(board: Board, period: str, genre: str, page: int, per_page: int) -> Listing:
    """ranking_listing with each series as its (title, slug) only: what the
    page's head lists, without building whole catalogue items."""
    catalogue, ranking = board.snapshot.mangas, board.ranking(period, genre)
    return _listing(len(ranking), page, per_page, ranking.places,
                    lambda ranked: ((catalogue.titles[ranked.key], catalogue.slugs[ranked.key]), ranked))


def calendar_listing(board: Board, day: str, page: int, per_page: int) -> Listing:
    catalogue, ids = board.snapshot.mangas, board.calendar[day]
    return _listing(len(ids), page, per_page, lambda start, stop: ids[start:stop],
                    lambda index: (catalogue.item(index), index in board.updated_today))


class _TieBySlug:
    """The slug of a catalogue id, the ranking's tie-break, read on demand."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue

    def get(self, key: int, default: str = "") -> str:
        return self.catalogue.slugs[key]


def compute_board(*, session: Session, snapshot: Snapshot, now: datetime) -> Board:
    catalogue = snapshot.mangas
    rows = view_history.series_rows(session=session)
    position = {slug: index for index, slug in enumerate(catalogue.slugs[i] for i in range(len(catalogue)))}
    by_id = {row.id: position[row.slug] for row in rows if row.slug in position}

    def held(views: dict[int, int]) -> dict[int, int]:
        return {by_id[key]: count for key, count in views.items() if key in by_id}

    today = discovery.tokyo_day(now)
    periods = {}
    for period in discovery.PERIODS:
        if period == discovery.ALL:
            today_views = view_history.views_between(session=session, first=today, last=today)
            totals = {row.id: row.views for row in rows}
            before = {key: count - today_views.get(key, 0) for key, count in totals.items()}
            periods[period] = (held(totals), held(before))
            continue
        windows = (discovery.window(period, today), discovery.window(period, today, back=1))
        periods[period] = tuple(  # type: ignore[assignment]
            held(view_history.views_between(session=session, first=first, last=last)) for first, last in windows
        )
    times = view_history.publication_times(session=session, since=now - discovery.WEEKDAY_LOOKBACK)
    series_of = {index: key for key, index in by_id.items()}
    calendar: dict[str, array] = {day: array("q") for day in discovery.DAY_LABELS}
    today_updates = set()
    for index in sorted(range(len(catalogue)), key=catalogue.updated.__getitem__, reverse=True):
        if catalogue.status[index] != _ONGOING:
            continue
        published = times.get(series_of.get(index, -1), [])
        calendar[discovery.usual_weekday(published, now=now) or discovery.IRREGULAR].append(index)
        if any(discovery.updated_today(moment, now=now) for moment in published):
            today_updates.add(index)
    members: dict[str, set[int]] = defaultdict(set)
    for index in range(len(catalogue)):
        for genre in catalogue.genres_of(index):
            members[catalogue.genre_names[genre]].add(index)
    board = Board(snapshot, now, periods, calendar, frozenset(today_updates),
                  {name: frozenset(ids) for name, ids in members.items()})
    for period in discovery.PERIODS:  # every ranking made here, in the thread, rather than for a visitor
        for genre in ["", *board.genre_members]:
            board.ranking(period, genre)
    return board


class HeldBoard:
    """This process's board. No request waits for a computation (43 s at
    100,000 series): a missing, stale (new catalogue) or due board is
    recomputed in a thread while what is held is served, or, before the
    first board, an empty one marked `pending` (the pages say 集計中)."""

    def __init__(self, *, refresh_seconds: float = REFRESH_SECONDS) -> None:
        self.refresh_seconds = refresh_seconds
        self._board: Board | None = None
        self._computed_at = float("-inf")
        self._task: asyncio.Task | None = None
        self._empty: Board | None = None
        self.generation = 0  # board computations installed, a cache key of the pages that show it

    async def board(self) -> Board:
        snapshot = await held_catalogue().snapshot()
        board = self._board
        stale = board is None or board.snapshot.version != snapshot.version or board.snapshot.mangas is not snapshot.mangas
        if stale or time.monotonic() - self._computed_at >= self.refresh_seconds:
            self.start(snapshot)
        if board is not None:
            return board
        if self._empty is None or self._empty.snapshot is not snapshot:
            self._empty = empty_board(snapshot, datetime.now(UTC))
        return self._empty

    def start(self, snapshot: Snapshot) -> asyncio.Task:
        """The computation for `snapshot`, started unless one runs."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._refresh(snapshot))
        return self._task

    async def _refresh(self, snapshot: Snapshot) -> None:
        try:
            board = await asyncio.to_thread(_compute, snapshot)
        except Exception:  # logged; what is held is served, and the next request tries again
            logger.exception("The rankings could not be computed")
            return
        self._board, self._computed_at = board, time.monotonic()
        self.generation += 1
        freeze_long_lived()  # a board is long-lived: out of the collector's way, as the catalogue is


async def warm_up() -> None:
    """A lifespan task: the first board computed at start, not for a visitor."""
    board = held_board()
    await board.start(await held_catalogue().snapshot())


def empty_board(snapshot: Snapshot, now: datetime) -> Board:
    """What is served before the first board: nothing ranked, every genre known (no 404 meanwhile)."""
    return Board(snapshot, now, {period: ({}, {}) for period in discovery.PERIODS},
                 {day: [] for day in discovery.DAY_LABELS}, frozenset(),
                 dict.fromkeys(snapshot.mangas.genre_names, frozenset()), pending=True)


def _compute(snapshot: Snapshot) -> Board:
    """The board of `snapshot`, computed in a process of its own (board_process.py: in a thread it held
    the GIL from every render for as long as it ran)."""
    now = datetime.now(UTC)
    db_url = shared_engine().url.render_as_string(hide_password=False)
    return Board(snapshot, now, **board_process.compute(board_process.Columns.of(snapshot.mangas), db_url, now))


_HELD: HeldBoard | None = None


def held_board() -> HeldBoard:
    global _HELD
    if _HELD is None:
        _HELD = HeldBoard()
    return _HELD
