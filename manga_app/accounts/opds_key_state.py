"""The signed-in reader's personal OPDS key, on /library: create one (its
URL is shown once, since only its hash is kept), or revoke it. The key
lives in the account (accounts/opds_keys.py); the URL stays in this state
only while the session it was shown to lasts: the first event after a
sign-out, a switch of user or a suspension forgets it (session_guard.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import reflex as rx

from manga_app.accounts import service
from manga_app.core.config import get_settings
from manga_app.core.display import relative_time_ja
from manga_app.opds import urls
from manga_app.accounts.auth_state import AuthState
from manga_app.ui.notify import notify

SIGN_IN_FIRST = ("error", "ログインしてください", "OPDSキーはログインしたアカウントで作成できます。")


class OpdsKeyState(rx.State):
    active: bool = False
    created: str = ""
    # The personal catalogue URL, right after the key was created (else "").
    url: str = ""
    # The public catalogue (no key): what to paste for browsing only.
    public_url: str = ""

    async def _uid(self) -> str:
        return (await self.get_state(AuthState))._uid

    @rx.event
    async def load(self):
        """When the panel appears (a reader signed in on /library)."""
        self.url, self.public_url = "", get_settings().origin + urls.ROOT
        await self._show_key(await self._uid())

    @rx.event
    async def create(self):
        uid = await self._uid()
        if not uid:
            return notify(*SIGN_IN_FIRST)
        key = await asyncio.to_thread(service.create_opds_key, uid)
        self.url = get_settings().origin + urls.keyed_root(key)
        (await self.get_state(AuthState))._opds_url_of = uid
        await self._show_key(uid)
        return notify("success", "OPDSキーを作成しました", "URLをアプリに登録してください。この画面を離れると再表示できません。")

    def _forget_url(self) -> None:
        """The session that was shown the URL is over (session_guard.py)."""
        self.url = ""

    async def _show_key(self, uid: str) -> None:
        created = await asyncio.to_thread(service.opds_key_created_at, uid) if uid else None
        self.active = created is not None
        self.created = relative_time_ja(created, now=datetime.now(UTC)) if created else ""

    @rx.event
    async def revoke(self):
        uid = await self._uid()
        if not uid:
            return notify(*SIGN_IN_FIRST)
        await asyncio.to_thread(service.revoke_opds_key, uid)
        self.url, self.active, self.created = "", False, ""
        return notify("success", "OPDSキーを無効にしました", "このキーのURLはもう使えません。")
