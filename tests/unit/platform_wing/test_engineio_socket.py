"""platform/engineio_socket.py: an open tab's engine.io socket behaves as
engine.io's own does (each scenario runs against both) with fewer tasks:
events both ways, pings on schedule, and a tab that stops answering them
is disconnected. A real socket.io server behind uvicorn (the site's
websocket protocol) and a real websocket client (the load benchmark's)."""

from __future__ import annotations

import asyncio
import contextlib
import socket

import aiohttp
import engineio.async_socket
import orjson
import pytest
import socketio
import uvicorn

from benchmarks.load.wire import SocketIO
from manga_app.platform.engineio_socket import LeanSocket
from manga_app.platform.socket_queue import SocketQueue
from manga_app.platform.websocket_protocol import WebSocketProtocol

SOCKETS = [engineio.async_socket.AsyncSocket, LeanSocket]
PING_INTERVAL, PING_TIMEOUT = 0.5, 3.0  # short, yet long enough for a loaded machine
NAMESPACE = "/_event"
PATIENCE = 30.0  # a wait on a loaded machine, not a speed figure


class Listener(socketio.AsyncNamespace):
    def __init__(self) -> None:
        super().__init__(NAMESPACE)
        self.disconnected: list[str] = []

    async def on_event(self, sid: str, data) -> None:
        await self.emit("event", {"echo": data}, to=sid)

    def on_disconnect(self, sid: str, reason=None) -> None:
        self.disconnected.append(sid)


@contextlib.asynccontextmanager
async def served(socket_class, monkeypatch):
    monkeypatch.setattr(engineio.async_socket, "AsyncSocket", socket_class)
    sio = socketio.AsyncServer(async_mode="asgi", ping_interval=PING_INTERVAL, ping_timeout=PING_TIMEOUT,
                               cors_allowed_origins="*")
    sio.eio.create_queue = SocketQueue
    listener = Listener()
    sio.register_namespace(listener)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(socketio.ASGIApp(sio, socketio_path="_event"), host="127.0.0.1",
                                           port=port, ws=WebSocketProtocol, log_level="warning", lifespan="off"))
    serving = asyncio.ensure_future(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}", listener
    finally:
        server.should_exit = True
        await serving


class Tab:
    """The load benchmark's socket.io client, counting the pings it is sent."""

    def __init__(self, session: aiohttp.ClientSession, answer_pings: bool = True) -> None:
        self.events: list = []
        self.pings = 0
        self.client = SocketIO(session, NAMESPACE, lambda name, data: self.events.append(data))
        self.answer_pings = answer_pings

    async def connect(self, url: str) -> None:
        await self.client.connect(url, "/_event", {}, {}, PATIENCE)
        ws = self.client._ws
        self.client._reader.cancel()

        async def counting():  # the client's reader, counting pings (and not answering them when told)
            async for message in ws:
                if message.type is not aiohttp.WSMsgType.TEXT:
                    return
                if message.data == "2":
                    self.pings += 1
                    if self.answer_pings:
                        await ws.send_str("3")
                elif message.data.startswith(self.client._prefix):
                    self.client._on_event(*orjson.loads(message.data[len(self.client._prefix):]))

        self.client._reader = asyncio.ensure_future(counting())


async def _until(predicate, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + PATIENCE
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("socket_class", SOCKETS, ids=lambda c: c.__name__)
def test_events_go_both_ways_and_an_open_tab_is_pinged_and_kept(socket_class, monkeypatch):
    async def scenario():
        async with served(socket_class, monkeypatch) as (url, listener), aiohttp.ClientSession() as session:
            tab = Tab(session)
            await tab.connect(url)
            await tab.client.emit("event", {"n": 1})
            await _until(lambda: tab.events, "the server's answer arrived")
            await _until(lambda: tab.pings >= 4, "the tab was pinged again and again")
            assert tab.events == [{"echo": {"n": 1}}]
            assert listener.disconnected == [], "a tab answering its pings stays connected"
            await tab.client.emit("event", {"n": 2})
            await _until(lambda: len(tab.events) == 2, "still answered after the pings")
            await tab.client.close()
            await _until(lambda: listener.disconnected, "the closed tab's disconnect")

    asyncio.run(scenario())


@pytest.mark.parametrize("socket_class", SOCKETS, ids=lambda c: c.__name__)
def test_a_tab_that_stops_answering_pings_is_disconnected(socket_class, monkeypatch):
    async def scenario():
        async with served(socket_class, monkeypatch) as (url, listener), aiohttp.ClientSession() as session:
            tab = Tab(session, answer_pings=False)
            await tab.connect(url)
            await _until(lambda: listener.disconnected, "the silent tab's disconnect")
            assert tab.pings == 1, "no second ping before the first is answered"

    asyncio.run(scenario())


def _server_tasks() -> set[asyncio.Task]:
    """The tasks of the server (not the tabs' readers)."""
    return {task for task in asyncio.all_tasks()
            if not task.get_coro().__qualname__.startswith(("SocketIO.", "Tab.")) and task is not asyncio.current_task()}


@pytest.mark.parametrize(("socket_class", "tasks"), [(engineio.async_socket.AsyncSocket, 5), (LeanSocket, 2)],
                         ids=["AsyncSocket", "LeanSocket"])
def test_an_idle_tab_keeps_two_tasks_waiting_not_five(socket_class, tasks, monkeypatch):
    async def scenario():
        async with served(socket_class, monkeypatch) as (url, _listener), aiohttp.ClientSession() as session:
            before = _server_tasks()
            tabs = [Tab(session) for _ in range(10)]
            for tab in tabs:
                await tab.connect(url)
            await _until(lambda: all(tab.pings >= 2 for tab in tabs), "every tab pinged")
            await asyncio.sleep(PING_INTERVAL / 2)
            # (engine.io's one service task for all sockets starts with the first)
            per_tab = len(_server_tasks() - before) // len(tabs)
            for tab in tabs:
                await tab.client.close()
            return per_tab

    assert asyncio.run(scenario()) == tasks
