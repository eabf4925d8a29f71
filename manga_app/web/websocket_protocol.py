"""uvicorn's websocket protocol (websockets' sans-I/O implementation), holding
less for each open websocket (issue 19).

uvicorn keeps the handshake's parsed request and its response (their header
objects, about 3 KB) on the connection for as long as it is open; once the
handshake is answered neither is read again (the ASGI scope keeps its own
copy of the request headers)."""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class WebSocketProtocol(WebSocketsSansIOProtocol):
    async def send(self, message) -> None:
        await super().send(message)
        if self.handshake_complete and self.response is not None:
            self.request = self.response = None
