"""A visitor's state lives as long as their tab is connected, then one TTL
(issue 19). manga_app/reflex_patches/ installs this in Reflex's in-memory
state manager; socket_guard's connect and disconnect hooks call it.

Reflex's in-memory state manager drops a state REFLEX_REDIS_TOKEN_EXPIRATION
seconds (30 minutes) after its last event, whether or not its tab is still
open. A visitor who left a page open longer than that and then did
something was answered by a fresh state under the page they still saw:
signed out on the server (their reading position no longer saved to their
account), and, as a guest, with no follows on the server (it holds what the
browser sent at hydration), so following one series replaced the browser's
whole list of follows with that one series.

Here the expiry passes over a state whose tab is connected (engine.io's
pings close the socket of a tab that is gone, so only open tabs keep
theirs), and its TTL starts again when the tab closes: a reload within it
still finds the state. A connected visitor costs its state's memory for as
long as the tab is open, which is what the memory budget per visitor counts.
"""

from __future__ import annotations

import functools
import time

from reflex.istate.manager import StateManager
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import StateToken
from reflex.utils.token_manager import TokenManager

# The worker's open tabs, as Reflex records them (token -> socket).
_tabs: TokenManager | None = None


def watch(tabs: TokenManager) -> None:
    """Read which tabs are open from `tabs` (the event namespace's token manager)."""
    global _tabs
    _tabs = tabs


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


def closed(manager: StateManager, token: str) -> None:
    """The tab of `token` closed: its state is dropped one TTL from now, unless it comes back."""
    if isinstance(manager, StateManagerMemory) and (tracked := manager._token_expires_at.get(token)) is not None:
        manager._track_token(tracked[1])
