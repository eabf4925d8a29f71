"""A visitor's state lives as long as their tab is connected, then one TTL
(issue 19). manga_app/platform/ installs this in Reflex's in-memory
state manager; socket_guard's connect and disconnect hooks call it.

Reflex drops a state REFLEX_REDIS_TOKEN_EXPIRATION seconds (30 minutes)
after its last event, in memory as in Redis, whether or not its tab is
still open. A visitor who left a page open longer than that and then did
something was answered by a fresh state under the page they still saw (as
the code reads; not reproduced in a browser): signed out on the server, so
their reading position was no longer saved to their account, and, as a
guest, with no follows on the server (it holds what the browser sent at
hydration), so following one series replaced the browser's list of follows
with that one series.

Here the expiry passes over a state whose tab is connected (engine.io's
pings close the socket of a tab that is gone, so only open tabs keep
theirs), and its TTL starts again when the tab closes: a reload within it
still finds the state. In Redis, where each state's key carries the TTL,
every worker gives the keys of its open tabs' states their TTL again every
third of it (`refresh_open_tabs`). A connected visitor costs its state's
memory for as long as the tab is open, which is what the memory budget per
visitor counts.

Overrides: StateManagerMemory._purge_token, _token_expires_at and
_track_token; the Redis key names of Reflex's states (`<token>_<state>`,
in the Lua script) and EventNamespace._token_manager.
Why: a state dropped under a page still open (signed out on the server, a
guest's follows replaced), and 46 MB held by 500 tabs opened and dropped.
Waits for: Reflex's in-memory expiry (reflex-dev/reflex#6201, merged)
counts time since the last event, open tab or not; no upstream issue found
for keeping a connected tab's state.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import OrderedDict

from reflex.istate.manager import StateManager
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.redis import StateManagerRedis
from reflex.istate.manager.token import StateToken
from reflex.state import BaseState, State
from reflex.utils.token_manager import TokenManager

logger = logging.getLogger(__name__)

# Closed tabs whose state is kept, per client address (newest last): see `closed`.
MAX_CLOSED_PER_ADDRESS = 100
MAX_ADDRESSES = 10_000
_closed_by_address: OrderedDict[str, OrderedDict[str, None]] = OrderedDict()
# The worker's open tabs, as Reflex records them (token -> socket).
_tabs: TokenManager | None = None
_refreshing: asyncio.Task | None = None


def watch(tabs: TokenManager, manager: StateManager | None = None) -> None:
    """Read which tabs are open from `tabs` (the event namespace's token
    manager); with state in Redis, keep their states' keys alive."""
    global _tabs, _refreshing
    _tabs = tabs
    if isinstance(manager, StateManagerRedis) and (_refreshing is None or _refreshing.done()):
        _refreshing = asyncio.get_running_loop().create_task(refresh_open_tabs(manager, tabs))


def is_open(token: str) -> bool:
    return _tabs is not None and token in _tabs.token_to_socket


def kept_while_open(purge_token):
    """StateManagerMemory._purge_token, passing over the state of an open tab."""

    @functools.wraps(purge_token)
    def purge_unless_open(self: StateManagerMemory, token: StateToken) -> None:
        if is_open(token.ident):
            # Looked at again one TTL from now; `closed` restarts the TTL when the tab closes.
            self._token_expires_at[token.cache_key] = (time.time() + self.token_expiration, token)
            return
        purge_token(self, token)

    return purge_unless_open


def closed(manager: StateManager, token: str, *, address: str = "") -> None:
    """The tab of `token` closed: its state is dropped one TTL from now, unless it comes back.
    Of the closed tabs of one address, only the newest MAX_CLOSED_PER_ADDRESS
    keep theirs that long: the others' go at once (500 tabs opened and dropped
    held ~46 MB for the whole TTL)."""
    if not isinstance(manager, StateManagerMemory) or (tracked := manager._token_expires_at.get(token)) is None:
        return
    manager._track_token(tracked[1])
    recent = _closed_by_address.setdefault(address, OrderedDict())
    recent.pop(token, None)
    recent[token] = None
    while len(recent) > MAX_CLOSED_PER_ADDRESS:
        oldest, _ = recent.popitem(last=False)
        if (old := manager._token_expires_at.get(oldest)) is not None and not is_open(oldest):
            manager._purge_token(old[1])
    if len(_closed_by_address) > MAX_ADDRESSES:  # the least recent address's list is forgotten, not its states
        _closed_by_address.pop(next(iter(_closed_by_address)))
    _closed_by_address.move_to_end(address)


def _state_names(cls: type[BaseState] = State) -> list[str]:
    return [cls.get_full_name(), *(name for sub in cls.get_substates() for name in _state_names(sub))]


# EXPIRE of every state key of some tabs, run by Redis: ARGV is the TTL, the
# number of state names, the names, then the tabs' tokens. Redis builds the
# keys, so the worker sends one command per batch of tabs rather than one
# per key. Pipelines of EXPIREs cost the worker about 6 us of CPU per key
# (19 keys a tab), most of it in stretches with no await, answering no one
# meanwhile: 40 ms for 333 open tabs, 1.1 s for 10,000, every third of the
# TTL; a call of this script for 333 tabs, 0.4 ms. The keys are not
# declared as KEYS: Reflex's state manager uses one Redis, not a cluster.
_EXPIRE_TABS = """
local ttl, count = ARGV[1], tonumber(ARGV[2])
for i = 3 + count, #ARGV do
  for j = 3, 2 + count do
    redis.call('EXPIRE', ARGV[i] .. '_' .. ARGV[j], ttl)
  end
end
"""
# Tabs per call: each call holds Redis for its keys (about 0.5 us each).
_TABS_PER_CALL = 500


async def refresh_open_tabs(manager: StateManagerRedis, tabs: TokenManager) -> None:
    """Every third of the TTL, the Redis keys of the states of this worker's
    open tabs get the whole TTL again (keys that do not exist stay so)."""
    names = _state_names()
    expire_tabs = manager.redis.register_script(_EXPIRE_TABS)
    while True:
        await asyncio.sleep(max(1.0, manager.token_expiration / 3))
        own = [token for token, record in list(tabs.token_to_socket.items()) if record.instance_id == tabs.instance_id]
        try:
            for start in range(0, len(own), _TABS_PER_CALL):
                await expire_tabs(args=[manager.token_expiration, len(names), *names, *own[start:start + _TABS_PER_CALL]])
        except Exception:  # noqa: BLE001 - Redis away for a moment: try again next time
            logger.exception("Could not refresh the TTL of the open tabs' states")
