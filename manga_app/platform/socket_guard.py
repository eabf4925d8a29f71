"""What the site checks at Reflex's event entry points (manga_app/
platform/ installs these hooks; its test fails if a Reflex upgrade
moves them):

- Before every event: the signed-in session must still be this
  connection's and its token current (visitor/session_guard.py), through
  App._preprocess, which Reflex's event processor calls under the state lock.
  On a page load's first hydrate, the states holding a page's content are
  reset first, so the server's seed stands (platform/page_content.py).
- Every incoming socket.io event (EventNamespace.on_event) must be a dict
  and stay under the rate and burst limits of its connection and of its
  address; anything else is dropped before it is parsed or queued, so a
  flooding client costs the worker almost nothing. A connection whose events
  are dropped is told so in Japanese, once per NOTICE_INTERVAL.
- No log line carries more than 200 characters of a payload (web/bounded_logs.py,
  installed beside these hooks by the HTTP layer).
- A visitor's state lives while their tab is connected, then one TTL
  (state_lifetime: connect tells it the open tabs, disconnect starts the TTL).
- Once a connection is set up (EventNamespace.on_connect), its environ holds
  only what is read again: socket.io keeps it for as long as the tab is open,
  with a copy of every request header and engine.io's request body reader
  (whose class engine.io defines anew for every request), about 3.5 KB per
  open tab (issue 19). Reflex reads the headers and the client's address
  from the ASGI scope, which stays.

Frames over engine.io's max_http_buffer_size (Reflex's
REFLEX_SOCKET_MAX_HTTP_BUFFER_SIZE, 1 MB by default; the reading history a
browser may send is up to about 1 MB) close the connection in engine.io.

Overrides: nothing by itself: the hooks the package's install() puts on
App._preprocess and EventNamespace.on_connect, on_event, on_disconnect;
reads EventNamespace._static_router_data and _token_manager, and trims the
environ socket.io keeps.
Why: the session guard before every event, rate limits before an event is
parsed, 3.5 KB per open tab of environ (issue 19).
Waits for: a public event middleware in Reflex (see the package's
docstring); no upstream issue found for the environ.
"""

from __future__ import annotations

import asyncio
import logging
import time

from reflex.app import App, EventNamespace
from reflex.state import StateUpdate
from reflex_base import constants
from reflex_base.event import fix_events

from manga_app.visitor.notify import notify
from manga_app.visitor.session_guard import hold_session
from manga_app.platform import event_answers, page_content, state_lifetime
from manga_app.core.rate_limit import Notices, RateLimiter

logger = logging.getLogger(__name__)

# A reader turning pages fast sends a few events a second; a page load a
# handful at once. Several tabs share an address (and a NAT many visitors).
PER_CONNECTION = RateLimiter(rate=20, burst=60)
PER_ADDRESS = RateLimiter(rate=100, burst=300)
NOTICE_INTERVAL = 10.0
NOTICES = Notices(NOTICE_INTERVAL)
TOO_MANY = ("warning", "操作が多すぎます", "少し待ってからもう一度お試しください。")
MAX_EVENT_NAME = 200


async def before_event(self: App, original, state, event):
    root = state._get_root_state()
    await hold_session(root)
    if page_content.first_hydrate_of_a_page(event):
        page_content.reset_page_content(root)
    return await original(self, state, event)


def _address(namespace: EventNamespace, sid: str) -> str:
    static = namespace._static_router_data.get(sid) or {}
    return str(static.get(constants.RouteVar.CLIENT_IP) or "unknown")


async def on_event(self: EventNamespace, original, sid: str, data):
    now = time.monotonic()
    if not isinstance(data, dict) or not isinstance(data.get("name"), str) or len(data["name"]) > MAX_EVENT_NAME:
        logger.warning("Dropped a malformed event (%s) from %s", type(data).__name__, sid)
        return None
    # Both buckets pay for every event, so neither can be drained by the other.
    allowed = PER_CONNECTION.allow(sid, now) & PER_ADDRESS.allow(_address(self, sid), now)
    if not allowed:
        if NOTICES.due(sid, now):
            logger.warning("Dropping events over the rate limit from %s (%s)", sid, _address(self, sid))
            await _tell(self, sid)
        # socket.io reads a flooded socket's frames back to back: let the
        # other connections and HTTP requests have the loop in between.
        await asyncio.sleep(0)
        return None
    # Queued, and answered once handled when the browser numbered it (an event dropped above is neither).
    return await event_answers.on_event(self, original, sid, data)


async def _tell(namespace: EventNamespace, sid: str) -> None:
    token = namespace.sid_to_token.get(sid)
    if token is None:
        return
    update = StateUpdate(events=fix_events([notify(*TOO_MANY)], token))
    await namespace.emit(str(constants.SocketEvent.EVENT), update, to=sid)


async def on_connect(self: EventNamespace, original, sid: str, environ: dict, *args):
    state_lifetime.watch(self._token_manager, self.app.state_manager)
    try:
        return await original(self, sid, environ, *args)
    finally:
        slim_environ(environ)


def slim_environ(environ: dict) -> None:
    """What engine.io's environ of a set-up websocket keeps (in place: socket.io holds this dict)."""
    for key in [key for key in environ if key.startswith("HTTP_") or key == "wsgi.input"]:
        del environ[key]


def on_disconnect(self: EventNamespace, original, sid: str):
    PER_CONNECTION.forget(sid)
    NOTICES.forget(sid)
    if (token := self.sid_to_token.get(sid)) is not None:
        state_lifetime.closed(self.app.state_manager, token, address=_address(self, sid))
    return original(self, sid)
