"""uvicorn's httptools protocol with a deadline for a request's headers.

uvicorn times out an idle keep-alive connection, but not one that is
sending a request's headers: a client that sends them a byte at a time (or
starts and stops) holds the connection, and its buffers, for as long as it
likes (slowloris). Here the headers of each request must be complete within
HEADER_TIMEOUT seconds of the connection (or of the request's first byte),
else the connection is closed. Bodies are left alone: an upload may be slow.

Overrides: uvicorn.protocols.http.httptools_impl.HttpToolsProtocol
(connection_made, on_message_begin, on_headers_complete, connection_lost).
Why: uvicorn has no deadline for a request's headers (slowloris).
Waits for: uvicorn's --timeout-request-start, proposed in Kludex/uvicorn#157
(closed without it; not in 0.54).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT = 10.0


class HeaderDeadlineProtocol(HttpToolsProtocol):
    _header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_deadline()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._start_deadline()

    def on_headers_complete(self) -> None:
        self._stop_deadline()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def _start_deadline(self) -> None:
        self._stop_deadline()
        self._header_deadline = self.loop.call_later(HEADER_TIMEOUT, self._headers_too_slow)

    def _stop_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _headers_too_slow(self) -> None:
        self._header_deadline = None
        if not self.transport.is_closing():
            self.transport.close()
