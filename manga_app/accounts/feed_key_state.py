"""The signed-in reader's personal Atom feed key, on /library: made, shown
once, revoked and remade like the OPDS key (OpdsKeyState; both kinds of key
are accounts/opds_keys.py). The URL stays only while the session it was
shown to lasts (session_guard.py forgets it)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import reflex as rx

from manga_app.accounts import service
from manga_app.accounts.auth_state import AuthState
from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app.core.display import relative_time_ja
from manga_app.ui.notify import notify

SIGN_IN_FIRST = ("error", "ログインしてください", "フィードのキーはログインしたアカウントで作成できます。")


class FeedKeyState(rx.State):
    active: bool = False
    created: str = ""
    # The personal feed's URL, right after the key was created (else "").
    url: str = ""

    async def _uid(self) -> str:
        return (await self.get_state(AuthState))._uid

    @rx.event
    async def load(self):
        """When the panel appears (a reader signed in on /library)."""
        self.url = ""
        await self._show_key(await self._uid())

    @rx.event
    async def create(self):
        uid = await self._uid()
        if not uid:
            return notify(*SIGN_IN_FIRST)
        key = await asyncio.to_thread(service.create_feed_key, uid)
        self.url = get_settings().origin + routes.personal_feed_url(key)
        # Whose personal URL this tab was shown: session_guard forgets it with the session.
        (await self.get_state(AuthState))._opds_url_of = uid
        await self._show_key(uid)
        return notify("success", "フィードのキーを作成しました", "URLをフィードリーダーに登録してください。この画面を離れると再表示できません。")

    def _forget_url(self) -> None:
        """The session that was shown the URL is over (session_guard.py)."""
        self.url = ""

    async def _show_key(self, uid: str) -> None:
        created = await asyncio.to_thread(service.feed_key_created_at, uid) if uid else None
        self.active = created is not None
        self.created = relative_time_ja(created, now=datetime.now(UTC)) if created else ""

    @rx.event
    async def revoke(self):
        uid = await self._uid()
        if not uid:
            return notify(*SIGN_IN_FIRST)
        await asyncio.to_thread(service.revoke_feed_key, uid)
        self.url, self.active, self.created = "", False, ""
        return notify("success", "フィードのキーを無効にしました", "このキーのURLはもう使えません。")
