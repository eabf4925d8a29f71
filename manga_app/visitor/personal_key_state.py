"""The signed-in reader's personal keys, on /library: the OPDS catalogue's
(for reader apps) and the Atom feed's (for feed readers). Each is created
(its URL is shown once, since only its hash is kept), revoked and remade the
same way (PersonalKeyState); the keys live in the account
(accounts/opds_keys.py). A URL stays in its state only while the session it
was shown to lasts: the first event after a sign-out, a switch of user or a
suspension forgets it (session_guard.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import reflex as rx

from manga_app.accounts import service
from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app.core.display import relative_time_ja
from manga_app.opds import urls
from manga_app.visitor.auth_state import AuthState, visitor_uid
from manga_app.visitor.notify import notify


@dataclass(frozen=True)
class KeyKind:
    """One kind of personal key: its account calls, its URL and its wording."""

    create: Callable[[str], str]
    created_at: Callable[[str], datetime | None]
    revoke: Callable[[str], bool]
    path_of: Callable[[str], str]  # the key's path on the site
    name: str  # as the notices say it: 「{name}を作成しました」
    sign_in_first: str
    register: str  # where to paste the URL


OPDS = KeyKind(service.create_opds_key, service.opds_key_created_at, service.revoke_opds_key, urls.keyed_root,
               "OPDSキー", "OPDSキーはログインしたアカウントで作成できます。", "URLをアプリに登録してください。")
FEED = KeyKind(service.create_feed_key, service.feed_key_created_at, service.revoke_feed_key, routes.personal_feed_url,
               "フィードのキー", "フィードのキーはログインしたアカウントで作成できます。",
               "URLをフィードリーダーに登録してください。")


class PersonalKeyState(rx.State, mixin=True):
    active: bool = False
    created: str = ""
    # The personal URL, right after the key was created (else "").
    url: str = ""

    def _kind(self) -> KeyKind:
        raise NotImplementedError

    def _loaded(self) -> None:
        """What a state shows besides its key, set when the panel appears."""

    @rx.event
    async def load(self):
        """When the panel appears (a reader signed in on /library)."""
        self.url = ""
        self._loaded()
        await self._show_key(await visitor_uid(self))

    @rx.event
    async def create(self):
        kind, uid = self._kind(), await visitor_uid(self)
        if not uid:
            return notify("error", "ログインしてください", kind.sign_in_first)
        key = await asyncio.to_thread(kind.create, uid)
        self.url = get_settings().origin + kind.path_of(key)
        # Whose personal URL this tab was shown: session_guard forgets it with the session.
        (await self.get_state(AuthState))._opds_url_of = uid
        await self._show_key(uid)
        return notify("success", f"{kind.name}を作成しました", f"{kind.register}この画面を離れると再表示できません。")

    @rx.event
    async def revoke(self):
        kind, uid = self._kind(), await visitor_uid(self)
        if not uid:
            return notify("error", "ログインしてください", kind.sign_in_first)
        await asyncio.to_thread(kind.revoke, uid)
        self.url, self.active, self.created = "", False, ""
        return notify("success", f"{kind.name}を無効にしました", "このキーのURLはもう使えません。")

    def _forget_url(self) -> None:
        """The session that was shown the URL is over (session_guard.py)."""
        self.url = ""

    async def _show_key(self, uid: str) -> None:
        created = await asyncio.to_thread(self._kind().created_at, uid) if uid else None
        self.active = created is not None
        self.created = relative_time_ja(created, now=datetime.now(UTC)) if created else ""


class OpdsKeyState(PersonalKeyState, rx.State):
    # The public catalogue (no key): what to paste for browsing only.
    public_url: str = ""

    def _kind(self) -> KeyKind:
        return OPDS

    def _loaded(self) -> None:
        self.public_url = get_settings().origin + urls.ROOT


class FeedKeyState(PersonalKeyState, rx.State):
    def _kind(self) -> KeyKind:
        return FEED
