"""A publish reaches the open tabs: the held catalogue checks the published
lists every PUSH_SECONDS (read_models/held.py `watch`), and when series
gained units, every tab connected to this process is sent
NotificationState.published(slugs) through the app's own socket. Each tab
asks the database again only when its reader follows one of them; nothing
is written per follower. Every process (granian worker) pushes to its own
connections."""

from __future__ import annotations

import asyncio
import logging
from functools import partial

from reflex.state import StateUpdate
from reflex_base import constants
from reflex_base.event import fix_events

from manga_app.visitor.notification_state import NotificationState
from manga_app.core.config import get_settings
from manga_app.read_models.held import held_catalogue

logger = logging.getLogger(__name__)

# A new chapter shows in an open tab within this (plus a round trip).
PUSH_SECONDS = 2.0


async def push(app, slugs: list[str]) -> int:
    """Tell every tab of this process; how many were told."""
    namespace = app.event_namespace
    if namespace is None:
        return 0
    spec = NotificationState.published(slugs)
    told = 0
    for sid, token in list(namespace.sid_to_token.items()):
        update = StateUpdate(events=fix_events([spec], token))
        await namespace.emit(str(constants.SocketEvent.EVENT), update, to=sid)
        told += 1
        if told % 500 == 0:
            await asyncio.sleep(0)  # let events and requests in between
    logger.info("Told %d open tabs of new units in %d series", told, len(slugs))
    return told


async def watch_publishes(app) -> None:
    """Lifespan task: the held catalogue's watch, with `push` listening."""
    held = held_catalogue()
    held.listen(partial(push, app))
    every = min(get_settings().catalogue_refresh_seconds or PUSH_SECONDS, PUSH_SECONDS)
    await held.watch(every)
