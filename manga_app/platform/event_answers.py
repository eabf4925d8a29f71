"""Every event the browser numbers is answered with its number once the
server has handled it (assets/js/delivery.js, issue 38).

Reflex's protocol has no acknowledgement: an event is answered only by the
state it changed, and one that changed nothing (a reading position saved, a
follow already there) gets nothing back. So a tab cannot tell an event that
waits (for a stopped Redis, a restarting database: up to a minute while the
socket stays connected) from one done, nor know, when its connection drops
(a worker killed, a network cut), which of the events it sent were handled.

The browser gives each event it sends a number (the frame's FIELD, which
Reflex's Event drops); once the event's handler has finished, this worker
sends the tab ANSWER_REF set to that number, as Reflex's own `_set_value`
event (how visitor/client_commands.py reaches the browser too). The tab
shows a notice while an answer is late, and sends again what was not
answered once it reconnects; the handlers it may send again are idempotent
(a follow, a like, a status, a position is a value to set, not a toggle).

A background event is answered as soon as it is queued: it may run for long
(the console's job list polls for minutes), and what it does is not a write
the tab would send again (a retry, a prefetch).

Overrides: EventNamespace.on_event (the number read off the raw frame
before Reflex parses it) and EventProcessor.enqueue (the future of the event
on_event queues, handed back through a context variable).
Why: issue 38, "the app tells readers that it is reconnecting" and "the
browser keeps what it could not send": neither is possible without knowing
which events were handled.
Waits for: an acknowledgement of each event in Reflex's socket protocol (no
upstream issue found).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

import reflex as rx
from reflex.app import EventNamespace
from reflex.state import StateUpdate
from reflex_base import constants
from reflex_base.event import Event
from reflex_base.registry import RegistrationContext

from manga_app.core.browser import EVENT_ANSWER_REF as ANSWER_REF
from manga_app.core.browser import EVENT_NUMBER_FIELD as FIELD

logger = logging.getLogger(__name__)

# Numbers are a tab's count of its events: anything else is not one.
_MAX_NUMBER = 2**53

_queued: contextvars.ContextVar[list | None] = contextvars.ContextVar("manga_queued_futures", default=None)


def number_of(data: object) -> int | None:
    """The browser's number of the event in `data`, taken out of it (None: not numbered, or not a number)."""
    if not isinstance(data, dict):
        return None
    number = data.pop(FIELD, None)
    if isinstance(number, int) and not isinstance(number, bool) and 0 < number < _MAX_NUMBER:
        return number
    return None


async def enqueue(self, original, token, event, *args, **kwargs):
    future = await original(self, token, event, *args, **kwargs)
    queued = _queued.get()
    if queued is not None:
        queued.append(future)
    return future


async def on_event(self: EventNamespace, original, sid: str, data):
    number = number_of(data)
    if number is None:
        return await original(self, sid, data)
    queued: list = []
    reset = _queued.set(queued)
    try:
        result = await original(self, sid, data)
    finally:
        _queued.reset(reset)
    if not queued:  # dropped (no token for this socket, say): nothing to answer
        return result
    future = queued[0]
    if _is_background(data.get("name")) or future.done():
        await _answer(self, sid, number)
    else:
        future.add_done_callback(lambda _done: asyncio.ensure_future(_answer(self, sid, number)))
    return result


def _is_background(name: object) -> bool:
    try:
        handler = RegistrationContext.get().event_handlers.get(name)
    except LookupError:
        return False
    return handler is not None and handler.handler.is_background


async def _answer(namespace: EventNamespace, sid: str, number: int) -> None:
    update = StateUpdate(events=Event.from_event_type([rx.set_value(ANSWER_REF, number)]))
    try:
        await namespace.emit(str(constants.SocketEvent.EVENT), update, to=sid)
    except Exception:  # noqa: BLE001 (a tab gone meanwhile: it sends the event again when back)
        logger.debug("The answer to event %s of %s was not sent", number, sid, exc_info=True)
