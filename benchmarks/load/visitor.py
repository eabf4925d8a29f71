"""One visitor's tab as the browser's state.js drives it, over a real
socket.io websocket (benchmarks/load/wire.py: the Engine.IO/Socket.IO
protocol on aiohttp's websocket, cheaper per event than python-socketio's
client, since the load generator shares the cores with the site): connect
with the tab's token, hydrate and load the page, navigate (on_load of the
next route), search as they type, turn pages in the reader (progress saved
to the history and, signed in, to the account).

Each visitor connects from its own loopback address (127.0.0.x), as visitors
arrive from their own addresses: the site's per-address rate limit applies
to each as in production."""

from __future__ import annotations

import asyncio
import time
import uuid
from urllib.parse import parse_qsl

import aiohttp

from reflex.state import OnLoadInternalState, State

from benchmarks.load.wire import SocketIO
from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.library_state import LibraryState
from manga_app.heads.state import HeadState
from manga_app.pages.home.state import HomeState
from manga_app.pages.search.state import SearchState
from manga_app.pages.title.state import TitleState
from manga_app.visitor.reading_state import ReadingState
from manga_app.reader.state import ReaderState
from manga_app.core.rate_limit import RateLimiter
from manga_app.platform.socket_guard import PER_CONNECTION

# The states' names as the browser addresses them, from the classes
# themselves: a moved or renamed state cannot leave the benchmark talking
# to nobody (every event then timed out as an error).
ROOT = State.get_full_name()
AUTH = AuthState.get_full_name()
LIBRARY = LibraryState.get_full_name()
READER = ReaderState.get_full_name()
SEARCH = SearchState.get_full_name()
TITLE = TitleState.get_full_name()
HOME = HomeState.get_full_name()
READING = ReadingState.get_full_name()
HEAD = HeadState.get_full_name()
ON_LOAD = f"{OnLoadInternalState.get_full_name()}.on_load_internal"
NAMESPACE = "/_event"
REPLY_TIMEOUT = 10.0
# A tab keeps under the site's per-connection rate limit (platform/socket_guard.py),
# with a margin: the site drops events over it (once per 10 s with a notice),
# and a dropped event was counted as never answered. No person comes near it;
# a saturating tab, answered in a few milliseconds, did (30 events/s).
PACE_RATE = PER_CONNECTION.rate * 0.9
PACE_BURST = PER_CONNECTION.burst / 2


class NoReply(Exception):
    """The server sent nothing back for an event within REPLY_TIMEOUT."""


def loopback_address(n: int) -> str:
    n %= 250 * 250
    return f"127.0.{1 + n // 250}.{2 + n % 250}"


class Visitor:
    """One tab. `round_trip` sends an event and returns the seconds until the
    server's update of the state that event changes arrived (what the visitor
    waits for); a tab sends one event at a time."""

    def __init__(self, base_url: str, n: int) -> None:
        self.base_url = base_url.replace("//localhost:", "//127.0.0.1:")
        self.origin = base_url
        self.n = n
        self.token = str(uuid.uuid4())
        self.path = "/"
        self.delta: dict[str, dict] = {}
        self._updates = 0
        self._changed: dict[str, int] = {}
        self._arrived = asyncio.Event()
        self._pace = RateLimiter(rate=PACE_RATE, burst=PACE_BURST)
        self._http: aiohttp.ClientSession | None = None
        self.client: SocketIO | None = None

    async def connect(self) -> None:
        connector = aiohttp.TCPConnector(local_addr=(loopback_address(self.n), 0))
        self._http = aiohttp.ClientSession(connector=connector)
        self.client = SocketIO(self._http, NAMESPACE, self._on_event)
        await self.client.connect(self.base_url, "/_event", {"token": self.token}, {"Origin": self.origin},
                                  REPLY_TIMEOUT)

    async def close(self) -> None:
        if self.client is not None:
            await self.client.close()
        if self._http is not None:
            await self._http.close()

    def _on_event(self, name: str, update) -> None:
        if name == "event" and isinstance(update, dict):
            self._on_update(update)

    def _on_update(self, update: dict) -> None:
        self._updates += 1
        for state, values in (update.get("delta") or {}).items():
            self.delta.setdefault(state, {}).update(values)
            self._changed[state] = self._updates
        self._arrived.set()

    def value(self, state: str, name: str):
        return self.delta.get(state, {}).get(f"{name}_rx_state_")

    async def round_trip(self, name: str, payload: dict | None, changes: str) -> float:
        while not self._pace.allow("tab", time.monotonic()):
            await asyncio.sleep(1 / PACE_RATE)
        seen = self._updates
        started = time.perf_counter()
        event = {"name": name, "payload": payload or {},
                 "router_data": {"pathname": self.path.split("?")[0], "asPath": self.path,
                                 "query": _query(self.path)}}
        await self.client.emit("event", event)
        deadline = started + REPLY_TIMEOUT
        while self._changed.get(changes, 0) <= seen:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise NoReply(name)
            # Cleared before each wait: an update of another state sets it,
            # and waiting on it set would spin until the awaited one arrives.
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), left)
            except TimeoutError:
                raise NoReply(name) from None
        return time.perf_counter() - started

    async def wait_for(self, predicate, timeout: float = REPLY_TIMEOUT) -> None:
        deadline = time.perf_counter() + timeout
        while not predicate():
            left = deadline - time.perf_counter()
            if left <= 0:
                raise NoReply("wait")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), left)
            except TimeoutError:
                raise NoReply("wait") from None

    async def open(self, path: str, changes: str) -> float:
        """The first page of the visit: hydrate, then the page's on_load."""
        self.path = path
        return await self.round_trip(f"{ROOT}.hydrate_and_load", {}, changes)

    async def navigate(self, path: str, changes: str) -> float:
        self.path = path
        return await self.round_trip(ON_LOAD, {}, changes)

    async def type_query(self, text: str) -> float:
        """One keystroke (slower than the page's typing throttle, so each is searched)."""
        return await self.round_trip(f"{SEARCH}.type_query", {"value": text}, SEARCH)

    async def sign_in(self, id_token: str, claims: dict) -> float:
        user = {"googleId": claims["user_id"], "email": claims.get("email", ""), "name": claims.get("name", ""),
                "avatar": "", "isAnonymous": False}
        took = await self.round_trip(f"{AUTH}.on_auth_change", {"user": user, "token": id_token}, AUTH)
        await self.wait_for(lambda: self.value(AUTH, "signed_in") is True)
        return took

    async def chapter_ready(self) -> None:
        await self.wait_for(lambda: self.value(READER, "status") == "ready"
                            and (self.value(READER, "chapter_url") or "").startswith(self.path))

    async def turn_page(self, page: int) -> float:
        payload = {"view_id": self.value(READER, "view_id"), "slug": self.value(READER, "series_slug"),
                   "chapter": self.value(READER, "chapter_number"), "page": page, "offset": 0.0,
                   "read_at": int(time.time() * 1000)}
        return await self.round_trip(f"{READER}.save_progress", payload, READING)


def _query(path: str) -> dict:
    return dict(parse_qsl(path.split("?", 1)[1])) if "?" in path else {}
