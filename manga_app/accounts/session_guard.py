"""Run before every event (platform/socket_guard.py installs it): a signed-in
session seen on another connection, or past its ID token's expiry, is
suspended before the event can read or change anything of the account (its
follows, whether it likes the open chapter, the console); a personal OPDS or
feed URL shown to a session that is over is forgotten."""

from __future__ import annotations

import logging

import reflex as rx

from manga_app.accounts.auth_state import AuthState
from manga_app.accounts.library_state import LibraryState
from manga_app.accounts.notification_state import NotificationState
from manga_app.accounts.feed_key_state import FeedKeyState
from manga_app.accounts.opds_key_state import OpdsKeyState
from manga_app.accounts.operator_state import forget_console
from manga_app.reader.end_state import EndCardState

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
        (await root.get_state(LibraryState))._forget_account()
        await forget_console(root)
        (await root.get_state(NotificationState))._forget_account()
        (await root.get_state(EndCardState))._forget_reader()
    if auth._opds_url_of and auth._opds_url_of != auth._uid:
        # Signed out, another user, or suspended: the personal OPDS and feed URLs go too.
        (await root.get_state(OpdsKeyState))._forget_url()
        (await root.get_state(FeedKeyState))._forget_url()
        auth._opds_url_of = ""
    return held
