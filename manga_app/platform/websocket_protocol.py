"""uvicorn's websocket protocol (websockets' sans-I/O implementation), holding
less for each open websocket (issue 19).

uvicorn keeps the handshake's parsed request and its response (their header
objects, about 3 KB; websockets' parser holds on to the request too) on the
connection for as long as it is open; once the handshake is answered neither
is read again (the ASGI scope keeps its own copy of the request headers).
Its queue of messages from the browser is a
SocketQueue (platform/socket_queue.py), not an asyncio.Queue and its four deques,
and its "writable" flag a SocketEvent.

Overrides: uvicorn.protocols.websockets.websockets_sansio_impl.
WebSocketsSansIOProtocol (uvicorn 0.54): its queue, writable flag, and the
handshake request and response it keeps.
Why: about 3 KB per open tab held after the handshake (issue 19).
Waits for: no upstream issue found; a uvicorn release that drops the
handshake once answered.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from manga_app.platform.socket_queue import SocketEvent, SocketQueue


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.queue = SocketQueue()  # type: ignore[assignment]
        self.writable = SocketEvent()  # type: ignore[assignment]
        self.writable.set()

    async def send(self, message) -> None:
        await super().send(message)
        if self.handshake_complete and self.response is not None:
            if self.request is not None:
                # websockets' parser keeps the request it parsed for as long as the socket is open.
                self.request.headers.clear()
            self.request = self.response = None
