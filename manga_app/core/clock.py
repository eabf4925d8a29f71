"""The time a page's relative times are shown against (3分前, たった今):
the end of the current minute, the same for every render within it.

The server caches a page's first HTML (ssr/pages.py) under this minute, and
the app's own load of the page, once the browser has connected, computes
the same texts within it. So the states the browser hydrated from and the
ones it is then sent agree, and nothing is redrawn after hydration. Before,
a page cached minutes earlier said 1分前 where the app then said 3分前; the
browser redrew every card of the home at once (most of its blocking time
in Lighthouse), and a visitor saw the times change under their eyes.

The end of the minute, not its start: nothing published before now is then
in the future (未来の時間). A time is shown at most a minute older than it
is. Pure: standard library only."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

__all__ = ["page_minute", "page_now", "pinned_minute"]

# The minute a server render was asked for (pinned_minute), in its task.
_pinned: ContextVar[int | None] = ContextVar("page_minute_pinned", default=None)


def page_now(now: datetime | None = None) -> datetime:
    """The end of `now`'s minute (UTC; now if not given, or the pinned minute
    while a server render runs)."""
    return datetime.fromtimestamp(page_minute(now) * 60, UTC)


@contextmanager
def pinned_minute(minute: int) -> Iterator[None]:
    """page_now() is `minute`'s (a page_minute) within: the server keeps a
    render under the minute it was asked in, so a render that runs across
    the minute's turn must still show that minute's times."""
    token = _pinned.set(minute)
    try:
        yield
    finally:
        _pinned.reset(token)


def page_minute(now: datetime | None = None) -> int:
    """page_now as a whole number of minutes: the same for every render in one
    minute. (Asked on every page request: no datetime is built for it.)"""
    if now is None and (pinned := _pinned.get()) is not None:
        return pinned
    return int((now.timestamp() if now else time.time()) // 60) + 1
