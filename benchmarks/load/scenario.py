"""Crowds of visitors (benchmarks/load/visitor.py) against a served site.

- `connect_crowd`: N visitors connect, hydrate and open a title page, and
  stay connected (idle tabs).
- `browse`: some of them are active: each, after a pause (think time, or
  none for a saturation run), opens the home page, a title page, a chapter
  (pages arrive, then turns 3-5 pages: progress saved, and signed-in visitors'
  progress written to their account), or the search page and types a word
  one keystroke at a time. Every event's round trip is recorded by kind.
- `come_and_go`: visitors who open a title page and leave, many times over.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import defaultdict
from dataclasses import dataclass, field

import httpx

from benchmarks.load.visitor import HEAD, READER, SEARCH, TITLE, NoReply, Visitor
from manga_app.core import routes

CONNECT_AT_ONCE = 50
TYPING_PAUSE = 0.3  # slower than the search page's typing throttle (0.25 s)


@dataclass
class Catalogue:
    slugs: list[str]
    chapters: list[str]
    queries: list[str]

    @classmethod
    def of(cls, url: str) -> Catalogue:
        items = httpx.get(f"{url}/mangas_1.json", timeout=30).json()["list"]
        return cls([item["slug"] for item in items],
                   [routes.chapter_url(item["slug"], item["latest_chapter"]) for item in items],
                   [item["title"][:3] for item in items])

    def title(self, rng: random.Random, *, not_: str = "") -> str:
        return rng.choice([f"/manga/{slug}" for slug in self.slugs if f"/manga/{slug}" != not_])

    def chapter(self, rng: random.Random, *, not_: str = "") -> str:
        return rng.choice([path for path in self.chapters if path != not_])


@dataclass
class Tally:
    round_trips: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    events: int = 0
    # Events answered within a browse's `seconds`, and those seconds: its
    # throughput. (Divided by the whole run, one reply that never came would
    # count the 10 s the run then waits for it as time without events.)
    in_window: tuple[int, float] | None = None

    @property
    def events_per_s(self) -> float | None:
        return self.in_window[0] / self.in_window[1] if self.in_window else None

    def record(self, kind: str, seconds: float) -> None:
        self.round_trips[kind].append(seconds)
        self.events += 1

    def all(self) -> list[float]:
        return [value for values in self.round_trips.values() for value in values]


async def connect_crowd(url: str, catalogue: Catalogue, count: int, *, first: int = 0,
                        tally: Tally | None = None) -> list[Visitor]:
    """`count` visitors, connected, hydrated, each with a title page open."""
    tally = tally or Tally()
    rng = random.Random(first)
    visitors = [Visitor(url, first + n) for n in range(count)]
    limit = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def arrive(visitor: Visitor) -> None:
        async with limit:
            try:
                await visitor.connect()
                tally.record("open title page", await visitor.open(catalogue.title(rng), TITLE))
            except Exception as error:  # noqa: BLE001 - a visitor who could not arrive is counted
                tally.errors[f"connect: {type(error).__name__}"] += 1

    await asyncio.gather(*(arrive(visitor) for visitor in visitors))
    return visitors


async def leave(visitors: list[Visitor]) -> None:
    await asyncio.gather(*(visitor.close() for visitor in visitors), return_exceptions=True)


async def _read_chapter(visitor: Visitor, catalogue: Catalogue, rng: random.Random, tally: Tally, think) -> None:
    tally.record("open chapter", await visitor.navigate(catalogue.chapter(rng, not_=visitor.path), READER))
    await visitor.chapter_ready()
    for page in range(rng.randint(3, 5)):
        await think()
        tally.record("turn page (progress saved)", await visitor.turn_page(page))


async def _search(visitor: Visitor, catalogue: Catalogue, rng: random.Random, tally: Tally, think) -> None:
    tally.record("open search", await visitor.navigate("/search", SEARCH))
    word = rng.choice(catalogue.queries)
    for end in range(1, len(word) + 1):
        await asyncio.sleep(TYPING_PAUSE)
        tally.record("search as you type", await visitor.type_query(word[:end]))


async def _visit(visitor: Visitor, catalogue: Catalogue, rng: random.Random, tally: Tally, think) -> None:
    action = rng.random()
    if action < 0.15 and visitor.path != "/":
        # The home page's rows are the same for everyone: its head is what changes.
        tally.record("open home", await visitor.navigate("/", HEAD))
    elif action < 0.45:
        tally.record("open title page", await visitor.navigate(catalogue.title(rng, not_=visitor.path), TITLE))
    elif action < 0.75:
        await _read_chapter(visitor, catalogue, rng, tally, think)
    else:
        await _search(visitor, catalogue, rng, tally, think)


async def browse(visitors: list[Visitor], catalogue: Catalogue, *, seconds: float, think_s: float,
                 tally: Tally) -> float:
    """Each visitor browses until `seconds` are over; returns the seconds it ran."""

    async def one(visitor: Visitor) -> None:
        rng = random.Random(visitor.n)

        async def think() -> None:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think_s if think_s else 0)

        await asyncio.sleep(rng.uniform(0, think_s or 0.05))  # not all at once
        while time.perf_counter() < deadline:
            try:
                await _visit(visitor, catalogue, rng, tally, think)
            except NoReply as error:
                tally.errors[f"no reply: {error}"] += 1
            except Exception as error:  # noqa: BLE001 - a dropped connection is an error to count
                tally.errors[type(error).__name__] += 1
                return
            await think()

    started = time.perf_counter()
    deadline = started + seconds
    counted = tally.events

    async def window_closes() -> None:
        await asyncio.sleep(seconds)
        tally.in_window = (tally.events - counted, seconds)

    closing = asyncio.ensure_future(window_closes())
    await asyncio.gather(*(one(visitor) for visitor in visitors))
    await closing
    return time.perf_counter() - started


async def sign_in(visitors: list[Visitor], tokens: list[tuple[str, dict]], tally: Tally) -> None:
    async def one(visitor: Visitor, token: tuple[str, dict]) -> None:
        try:
            tally.record("sign in", await visitor.sign_in(*token))
        except Exception as error:  # noqa: BLE001
            tally.errors[f"sign in: {type(error).__name__}"] += 1

    await asyncio.gather(*(one(visitor, token) for visitor, token in zip(visitors, tokens, strict=False)))


async def come_and_go(url: str, catalogue: Catalogue, total: int, *, at_once: int, first: int,
                      tally: Tally) -> None:
    """`total` visitors, `at_once` at a time: each connects, opens a title page and leaves."""
    rng = random.Random(first)
    limit = asyncio.Semaphore(at_once)

    async def one(n: int) -> None:
        async with limit:
            visitor = Visitor(url, first + n)
            try:
                await visitor.connect()
                tally.record("open title page", await visitor.open(catalogue.title(rng), TITLE))
            except Exception as error:  # noqa: BLE001
                tally.errors[type(error).__name__] += 1
            finally:
                await visitor.close()

    await asyncio.gather(*(one(n) for n in range(total)))
