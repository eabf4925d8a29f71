"""engine.io's socket for one open tab, with fewer tasks waiting for it
(issue 19).

python-engineio (4.15) keeps, for each open websocket, besides the task
that serves it: a task reading the next frame (so it can be waited for with
a timeout), a task waiting for the next packet to send inside the writer
task (asyncio.wait_for wraps it in one), and a task sleeping until the next
ping: four tasks and their coroutines, futures and timers, about 3 KB per
open tab that does nothing. Here the frames are read in the task that
serves the socket and the packets waited for in the writer task, each
under `asyncio.timeout` (a timer, no task), and the ping is a timer
callback that queues the PING packet. What goes over the
wire, and when, is engine.io's: the same packets, the same ping interval,
the same timeouts that close a socket whose tab is gone.

A frame that does not decode (as engine.io's packet or as socket.io's)
closes the socket after one warning line: engine.io would log a traceback
for each and keep reading.

A socket that starts on long-polling and upgrades (Reflex's frontend opens
websockets directly) is served by engine.io's own handler.

Overrides: engineio.async_socket.AsyncSocket.poll, schedule_ping, close and
_websocket_handler (python-engineio 4.15.1).
Why: four tasks per idle open tab where one serves it (about 3 KB), and a
traceback logged for every malformed frame (issue 19).
Waits for: no upstream issue found; an engine.io release whose asyncio
socket reads and pings without a task each.
"""

from __future__ import annotations

import asyncio
import time

from engineio import exceptions, packet
from engineio.async_socket import AsyncSocket
from socketio import packet as socketio_packet

from manga_app.core.text import bounded


def _checked(pkt: packet.Packet) -> packet.Packet:
    """`pkt`, once its socket.io packet decodes: socket.io decodes it in a task
    of its own, where a malformed one only logs a traceback (ValueError here
    ends the socket with one line instead)."""
    if pkt.packet_type == packet.MESSAGE and isinstance(pkt.data, str):
        socketio_packet.Packet(encoded_packet=pkt.data)
    return pkt


class LeanSocket(AsyncSocket):
    _ping_timer: asyncio.TimerHandle | None = None

    async def poll(self):
        """engine.io's, waiting for the first packet under a timer instead of in a task of its own."""
        try:
            async with asyncio.timeout(self.server.ping_interval + self.server.ping_timeout):
                packets = [await self.queue.get()]
            self.queue.task_done()
        except (TimeoutError, asyncio.CancelledError):
            raise exceptions.QueueEmpty() from None
        if packets == [None]:
            return []
        while True:
            try:
                pkt = self.queue.get_nowait()
                self.queue.task_done()
                if pkt is None:
                    self.queue.put_nowait(None)
                    break
                packets.append(pkt)
            except asyncio.QueueEmpty:
                break
        return packets

    def schedule_ping(self):
        # as engine.io's: only once the previous ping was answered
        if self.last_ping:
            self.last_ping = None
            self._ping_timer = asyncio.get_running_loop().call_later(self.server.ping_interval, self._ping)

    def _ping(self) -> None:
        self._ping_timer = None
        if not self.closing and not self.closed:
            self.last_ping = time.time()
            self.queue.put_nowait(packet.Packet(packet.PING))

    async def close(self, wait=True, abort=False, reason=None):
        if self._ping_timer is not None:
            self._ping_timer.cancel()
            self._ping_timer = None
        await super().close(wait=wait, abort=abort, reason=reason)

    async def _websocket_handler(self, ws):
        if self.connected:  # an upgrade from long-polling
            return await super()._websocket_handler(ws)
        self.connected = True
        self.upgraded = True
        limit = self.server.max_http_buffer_size

        async def writer():
            while True:
                try:
                    packets = await self.poll()
                except exceptions.QueueEmpty:
                    break
                if not packets:  # the connection is closing
                    break
                try:
                    for pkt in packets:
                        await ws.send(pkt.encode())
                except Exception:  # noqa: BLE001 - as engine.io: a failed send ends the writer
                    break
            await ws.close()

        writer_task = asyncio.ensure_future(writer())
        while True:
            try:
                async with asyncio.timeout(self.server.ping_interval + self.server.ping_timeout):
                    data = await ws.wait()
            except BaseException:  # noqa: BLE001 - as engine.io: timed out, cancelled or failed, the socket ends
                break
            if data is None:  # closed by the client
                break
            if len(data) > limit:
                break  # as engine.io: a packet over max_http_buffer_size ends the socket
            try:
                await self.receive(_checked(packet.Packet(encoded_packet=data)))
            except exceptions.UnknownPacketError:
                pass
            except exceptions.SocketIsClosedError:
                break
            except Exception as error:  # noqa: BLE001 - a malformed frame: one line, and the socket ends
                # (engine.io logs a traceback and goes on: a client could fill the disk frame by frame)
                self.server.logger.warning("Closed a socket after a malformed frame: %s: %s",
                                           type(error).__name__, bounded(str(error), 120))
                break
        await self.queue.put(None)  # the writer sends what is queued, then ends
        await writer_task
        await self.close(wait=False, abort=True, reason=self.server.reason.TRANSPORT_CLOSE)
