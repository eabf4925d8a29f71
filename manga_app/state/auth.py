"""Who the visitor is (spec section 4): loading until the Firebase client
reports, then a user or nobody.

The browser's user object is never trusted: every ID token is verified with
firebase-admin first, and `_uid` (backend-only) is set from the verified
token alone. All user data is read and written through `_uid`.

The Firebase root (components/account/root.py) runs LibraryState.sync after
each of these handlers, so the library follows whoever is signed in."""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from manga_app.auth import service
from manga_app.auth.settings import get_firebase_config
from manga_app.auth.verify import TokenRefused, VerifiedUser, verify_id_token
from manga_app.state.notify import notify

logger = logging.getLogger(__name__)

SIGN_IN_FAILED = "ログインできませんでした"
ERROR_MESSAGES = {
    "auth/network-request-failed": "通信できませんでした。接続を確かめてもう一度お試しください。",
    "auth/too-many-requests": "しばらく時間をおいてからお試しください。",
    "auth/user-disabled": "このアカウントは利用できません。",
}


async def verified(token: object) -> VerifiedUser:
    return await asyncio.to_thread(verify_id_token, token, config=get_firebase_config())


class AuthState(rx.State):
    loading: bool = True
    google_id: str = ""
    email: str = ""
    name: str = ""
    avatar: str = ""
    is_anonymous: bool = False
    # Set only from a verified token; never sent to the browser.
    _uid: str = ""

    @rx.var
    def signed_in(self) -> bool:
        return bool(self.google_id)

    @rx.var
    def display_name(self) -> str:
        if self.is_anonymous:
            return "ゲスト"
        return self.name or self.email.split("@")[0] or "ユーザー"

    def _show(self, user: VerifiedUser) -> None:
        self._uid = user.uid
        self.google_id, self.email, self.name, self.avatar = user.uid, user.email, user.name, user.avatar
        self.is_anonymous = user.is_anonymous
        self.loading = False

    def _clear(self) -> None:
        self._uid = ""
        self.google_id = self.email = self.name = self.avatar = ""
        self.is_anonymous = False
        self.loading = False

    @rx.event
    async def on_auth_change(self, user: dict | None, token: str):
        """The provider's auth-state notification: a user (with a token) or null."""
        if not user:
            self._clear()
            return None
        try:
            found = await verified(token)
        except TokenRefused as error:
            logger.warning("Refused an ID token: %s", error)
            self._clear()
            return notify("error", SIGN_IN_FAILED, "もう一度ログインしてください。")
        if not isinstance(user, dict) or user.get("googleId") != found.uid:
            # The browser's user object does not match its own token.
            logger.warning("Auth state for %s came with the token of another uid", user.get("googleId") if isinstance(user, dict) else None)
            self._clear()
            return notify("error", SIGN_IN_FAILED)
        await asyncio.to_thread(service.sign_in, found)
        self._show(found)
        return None

    @rx.event
    async def on_token(self, token: str):
        """A refreshed token: it must still be the same user."""
        try:
            found = await verified(token)
        except TokenRefused:
            return
        if found.uid == self._uid:
            self._show(found)

    @rx.event
    async def on_merge(self, anonymous_token: str, token: str):
        """An anonymous visitor signed in to an existing Google account: move the
        anonymous library into it. Both tokens are verified; the first must be
        anonymous and the second must not."""
        try:
            source, target = await verified(anonymous_token), await verified(token)
        except TokenRefused as error:
            logger.warning("Refused a merge: %s", error)
            return notify("error", "ライブラリを引き継げませんでした")
        if not source.is_anonymous or target.is_anonymous or source.uid == target.uid:
            return notify("error", "ライブラリを引き継げませんでした")
        await asyncio.to_thread(service.merge_accounts, source, target)
        self._show(target)
        return notify("success", "ゲストのライブラリを引き継ぎました")

    @rx.event
    def on_error(self, code: str):
        message = ERROR_MESSAGES.get(str(code)[:80], "もう一度お試しください。")
        return notify("error", SIGN_IN_FAILED, message)
