"""Run before every event (platform/socket_guard.py installs it): a signed-in
session seen on another connection, or past its ID token's expiry, is
suspended before the event can read or change anything of the account (its
follows, whether it likes the open chapter, the console); a personal OPDS or
feed URL shown to a session that is over is forgotten."""

from __future__ import annotations

import logging

import reflex as rx

from manga_app.visitor.auth_state import ACCOUNT_HOLDERS, AuthState
from manga_app.visitor.personal_key_state import FeedKeyState, OpdsKeyState
from manga_app.visitor.operator_state import forget_console

logger = logging.getLogger(__name__)


async def hold_session(root: rx.State) -> bool:
    """False when the session had to be suspended (then nothing of the
    account is left in the state the event sees)."""
    auth = await root.get_state(AuthState)
    held = not auth._uid or auth._holds()
    if not held:
        moved = auth._sid != auth._connection()
        logger.info("Suspended the session of %s: %s", auth._uid, "another connection" if moved else "its ID token expired")
        auth._suspend()
        await forget_console(root)
        for holder in ACCOUNT_HOLDERS:
            (await root.get_state(holder))._forget_account()
    if auth._opds_url_of and auth._opds_url_of != auth._uid:
        # Signed out, another user, or suspended: the personal OPDS and feed URLs go too.
        (await root.get_state(OpdsKeyState))._forget_url()
        (await root.get_state(FeedKeyState))._forget_url()
        auth._opds_url_of = ""
    return held
