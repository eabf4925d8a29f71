"""A lean socket.io client for the load benchmark: the real Engine.IO 4 /
Socket.IO 5 protocol over a real websocket (aiohttp), as the browser's
socket.io-client speaks it with `transports: ["websocket"]`, and nothing
else: text packets only, one namespace, no reconnection, no acks.

python-socketio's client costs about as much CPU per event as the site
spends answering it (a task per received event, several layers of packet
objects); the load generator shares the machine's two cores with the site,
so what it spends is taken from the site. Same frames on the wire, less
Python per frame.

Engine.IO: the server opens with `0{"sid":...,"pingInterval":...}`, pings
with `2` (answered `3`), closes with `1`. Socket.IO inside message packets
(`4`): `0/ns,` connects the namespace (answered `0/ns,{"sid":...}`),
`2/ns,["name",data]` is an event, `1/ns,` disconnects, `4/ns,{...}` is a
refused connection."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from urllib.parse import urlencode

import aiohttp
import orjson


class Refused(Exception):
    """The server refused the namespace connection or closed the socket."""


class SocketIO:
    """One websocket to `url` (http or https) speaking Socket.IO on `namespace`;
    `on_event(name, data)` is called for every event the server sends."""

    def __init__(self, session: aiohttp.ClientSession, namespace: str, on_event: Callable[[str, object], None]) -> None:
        self._session = session
        self._namespace = namespace
        self._prefix = f"42{namespace},"
        self._on_event = on_event
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task | None = None

    async def connect(self, url: str, path: str, query: dict, headers: dict, timeout: float) -> None:
        ws_url = url.replace("http", "ws", 1).rstrip("/") + f"/{path.strip('/')}/?" + urlencode(
            {**query, "EIO": "4", "transport": "websocket"})
        self._ws = await self._session.ws_connect(ws_url, headers=headers, autoping=False, compress=0,
                                                  timeout=aiohttp.ClientWSTimeout(ws_close=timeout))
        opened = await asyncio.wait_for(self._ws.receive_str(), timeout)
        if not opened.startswith("0"):
            raise Refused(opened[:100])
        await self._ws.send_str(f"40{self._namespace},")
        while True:
            reply = await asyncio.wait_for(self._ws.receive_str(), timeout)
            if reply == "2":
                await self._ws.send_str("3")
            elif reply.startswith(f"40{self._namespace},"):
                break
            else:
                raise Refused(reply[:100])
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        ws, prefix, cut = self._ws, self._prefix, len(self._prefix)
        async for message in ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            text = message.data
            if text.startswith(prefix):
                name, *data = orjson.loads(text[cut:])
                self._on_event(name, data[0] if data else None)
            elif text == "2":
                await ws.send_str("3")
            elif text == "1" or text.startswith(("41", "44")):
                break

    async def emit(self, name: str, data: object) -> None:
        await self._ws.send_str(self._prefix + orjson.dumps([name, data]).decode())

    async def close(self) -> None:
        if self._ws is None:
            return
        with contextlib.suppress(Exception):
            if not self._ws.closed:
                await self._ws.send_str(f"41{self._namespace},")
                await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
