"""Every patch this site makes to Reflex's event handling, in one place
(tests/unit/web/test_socket_guard.py fails if a Reflex upgrade moves what
these rely on).

- Before every event: the signed-in session must still be this
  connection's and its token current (state/session_guard.py).
"""

from __future__ import annotations

import functools

from reflex.app import App

from manga_app.state.session_guard import hold_session

_MARK = "_manga_guarded"


def install() -> None:
    """Patch Reflex once per process (idempotent)."""
    if getattr(App._preprocess, _MARK, False):
        return
    original = App._preprocess

    @functools.wraps(original)
    async def _preprocess(self, state, event):
        await hold_session(state._get_root_state())
        return await original(self, state, event)

    setattr(_preprocess, _MARK, True)
    App._preprocess = _preprocess
