"""Who the visitor is (docs/spec.md section 4): loading until the Firebase client
reports, then a user or nobody.

The browser's user object is never trusted: every ID token is verified with
firebase-admin first, and `_uid` (backend-only) is set from the verified
token alone. All user data is read and written through `_uid`.

A session is only as good as its token: it belongs to the connection
(socket.io sid) that proved it and lasts until the token expires. Before
every event, platform/socket_guard.py suspends a session seen on another
connection (a replayed client token, or the same tab after a reconnect) or
past its token's expiry (`_holds`): the backend forgets the uid and shows
"loading", and the browser answers with a fresh token (client.jsx resyncs
whenever loading turns true), so a reader only sees a blink.

The Firebase root (ui/account/root.py, one per page load) sends
these events and runs LibraryState.sync after each, so the library follows
whoever is signed in."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import reflex as rx
from reflex.event import Event, EventSpec, event_sequence

from manga_app.accounts import service
from manga_app.accounts.roles import is_operator
from manga_app.accounts.settings import get_firebase_config
from manga_app.accounts.verify import TokenRefused, VerificationUnavailable, VerifiedUser, verify_id_token
from manga_app.core.config import get_settings
from manga_app.visitor.client_commands import client_command
from manga_app.visitor.notify import notify

logger = logging.getLogger(__name__)

SIGN_IN_FAILED = "ログインできませんでした"
MERGE_FAILED = "ライブラリを引き継げませんでした"
SESSION_ENDED = ("error", "ログインの確認ができませんでした", "ログアウトしました。もう一度ログインしてください。")
# Google (or the sign-in service) could not be reached: its helper script
# did not load (auth/internal-error from the SDK, our own helper-unreachable
# when it never answers) or a request failed on the network.
UNREACHABLE = frozenset({"auth/internal-error", "auth/network-request-failed", "auth/helper-unreachable"})
UNREACHABLE_TITLE = "Googleに接続できませんでした"
UNREACHABLE_TRY = "通信環境を確かめて、しばらくしてからもう一度お試しください。"
UNREACHABLE_NOTICE = {
    # A guest stays a guest: nothing is lost.
    True: f"Googleのログイン画面を読み込めませんでした。ゲストのままライブラリは使えます。{UNREACHABLE_TRY}",
    False: f"Googleのログイン画面を読み込めませんでした。「ゲストとして続ける」でもフォローや閲覧履歴を使えます。{UNREACHABLE_TRY}",
}
ERROR_MESSAGES = {
    "auth/too-many-requests": "しばらく時間をおいてからお試しください。",
    "auth/user-disabled": "このアカウントは利用できません。",
    "auth/popup-blocked": "ポップアップがブロックされました。ブラウザの設定を確かめてください。",
    "auth/not-ready": "準備中です。少し待ってからもう一度お試しください。",
}
PROVIDER_DOWN = ("error", SIGN_IN_FAILED, "ログインの確認ができませんでした。しばらくしてからもう一度お試しください。")
MAX_LOGGED = 300
# The browser's Firebase session ends with the backend's, so the two agree.
BROWSER_SIGN_OUT = client_command("sign_out")


# Verifications wait on the identity provider: on threads of their own, so a
# provider that stops answering cannot take the default pool's threads, which
# every page's database work shares.
_VERIFYING = ThreadPoolExecutor(max_workers=4, thread_name_prefix="verify-token")


async def verified(token: object, *, check_revoked: bool = False) -> VerifiedUser:
    call = partial(verify_id_token, token, config=get_firebase_config(), check_revoked=check_revoked)
    return await asyncio.get_running_loop().run_in_executor(_VERIFYING, call)


# States that hold something of the signed-in account (its follows, its
# notices, whether it likes the open chapter): each one's `_forget_account`
# runs when the session is suspended (session_guard.py).
ACCOUNT_HOLDERS: list[type[rx.State]] = []


def holds_the_account(cls: type[rx.State]) -> type[rx.State]:
    """A class decorator for every state that keeps something of the account."""
    ACCOUNT_HOLDERS.append(cls)
    return cls


# Events sent while it is not yet known who the visitor is (the page's first
# seconds, or a suspended session's blink: `loading`), kept and run once it
# is known (the events a handler returns run next), for the connection that
# sent them alone (a replayed client token cannot hand its events to the
# account's own tab); so a いいね or a 元に戻す tapped then is not lost. At
# most MAX_DEFERRED, each of at most DEFERRED_BYTES of arguments: beyond,
# the visitor is asked to wait.
MAX_DEFERRED = 16
DEFERRED_BYTES = 2048
WAIT = ("info", "読み込み中です", "少し待ってからもう一度お試しください。")


async def until_known(state: rx.State, event: EventSpec) -> list | EventSpec | None:
    """None when the visitor is known: the handler of `event` (the one being
    handled, with its arguments) goes on. Else what it returns: nothing, the
    event being kept and run again once AuthState stops loading, or, with
    too many kept, a notice to wait."""
    auth = await state.get_state(AuthState)
    if not auth.loading:
        return None
    return [] if auth._defer(event) else notify(*WAIT)


async def visitor_uid(state: rx.State) -> str:
    """Who the visitor is, the one way other states ask: the uid of a
    verified ID token, "" for nobody (not signed in, or still loading)."""
    return (await state.get_state(AuthState))._uid


class AuthState(rx.State):
    loading: bool = True
    google_id: str = ""
    email: str = ""
    name: str = ""
    avatar: str = ""
    is_anonymous: bool = False
    # The browser SDK's settings, sent when the client mounts: a build never
    # carries a project or an emulator address of its own.
    client_config: dict[str, str] = {}
    # Set only from a verified token; never sent to the browser.
    _uid: str = ""
    # The connection that proved it, and when its token expires (epoch s).
    _sid: str = ""
    _expires: float = 0.0
    # An operator (accounts.roles), from the verified token of this session alone.
    _operator: bool = False
    # Whose personal OPDS or feed URL this tab was shown (OpdsKeyState.url, FeedKeyState.url; session_guard forgets them).
    _opds_url_of: str = ""
    # (connection, handler name, payload, router data) of each event deferred while loading.
    _deferred: list[tuple[str, str, dict, dict]] = []

    @rx.var
    def signed_in(self) -> bool:
        return bool(self.google_id)

    @rx.var
    def display_name(self) -> str:
        if self.is_anonymous:
            return "ゲスト"
        return self.name or self.email.split("@")[0] or "ユーザー"

    def _connection(self) -> str:
        return self.router.session.session_id

    def _show(self, user: VerifiedUser) -> None:
        self._uid, self._sid, self._expires = user.uid, self._connection(), user.expires_at
        self._operator = is_operator(user, get_settings().operator_emails)
        self.google_id, self.email, self.name, self.avatar = user.uid, user.email, user.name, user.avatar
        self.is_anonymous = user.is_anonymous
        self.loading = False

    def _clear(self) -> None:
        self._uid, self._sid, self._expires = "", "", 0.0
        self._operator = False
        self.google_id = self.email = self.name = self.avatar = ""
        self.is_anonymous = False
        self.loading = False

    def _holds(self, *, now: float | None = None) -> bool:
        """Is the session still this connection's, with a current token?"""
        return self._sid == self._connection() and (time.time() if now is None else now) < self._expires

    def _operator_session(self) -> str:
        """The uid of the operator this connection proved to be (session held,
        token current), else "": what every console event checks first."""
        return self._uid if self._uid and self._operator and self._holds() else ""

    def _suspend(self) -> None:
        """Nothing of the account stays; the browser is asked for a token again."""
        self._clear()
        self.loading = True

    def _defer(self, spec: EventSpec) -> bool:
        event = Event.from_event_type(spec)[0]
        if len(json.dumps(event.payload, ensure_ascii=False, default=str)) > DEFERRED_BYTES:
            return False
        # The page it came from, as the browser sent it (state.js), not the one
        # the tab shows when it runs: ListsState.opened reads its slug there.
        url = self.router.url
        page = {"pathname": self.router.route_id, "asPath": url.path + (f"?{url.query}" if url.query else ""),
                "query": dict(url.query_parameters)}
        kept = (self._connection(), event.name, event.payload, page)
        if kept not in self._deferred:
            if len(self._deferred) >= MAX_DEFERRED:
                return False
            self._deferred = [*self._deferred, kept]
        return True

    def _settled(self, answer=None) -> list | None:
        """`answer`, and once the visitor is known the events deferred until then."""
        if self.loading or not self._deferred:
            return answer
        again = [Event(name=name, payload=payload, router_data=router_data)
                 for sid, name, payload, router_data in self._deferred if sid == self._connection()]
        self._deferred = []
        return [*event_sequence(answer), *again] if answer is not None else again

    @rx.event
    def start_client(self):
        """The Firebase client mounted: it gets its settings from this backend."""
        self.client_config = get_firebase_config().browser_settings()

    @rx.event
    async def on_auth_change(self, user: dict | None, token: str):
        """The provider's auth-state notification: a user (with a token) or null."""
        return self._settled(await self._auth_change(user, token))

    async def _auth_change(self, user: dict | None, token: str):
        if not user:
            self._clear()
            return None
        try:
            found = await verified(token, check_revoked=True)
        except TokenRefused as error:
            logger.warning("Refused an ID token: %s", error)
            self._clear()
            return notify("error", SIGN_IN_FAILED, "もう一度ログインしてください。")
        except VerificationUnavailable:
            self.loading = False
            return notify(*PROVIDER_DOWN)
        claimed = user.get("googleId") if isinstance(user, dict) else None
        if claimed != found.uid:
            # The browser's user object does not match its own token.
            logger.warning("Auth state claimed uid %.128r with the token of %s", claimed, found.uid)
            self._clear()
            return notify("error", SIGN_IN_FAILED, "もう一度ログインしてください。")
        await asyncio.to_thread(service.sign_in, found)
        self._show(found)
        return None

    @rx.event
    async def on_token(self, token: str):
        """A refreshed token of the signed-in user. One that fails
        verification ends the session: the backend forgets the uid, the
        visitor is told, and the browser signs out too."""
        if not self._uid:
            return None  # no session to refresh; the auth-state report decides
        try:
            found = await verified(token, check_revoked=True)
        except TokenRefused as error:
            logger.warning("Refused a refreshed ID token of %s: %s", self._uid, error)
            self._clear()
            return [notify(*SESSION_ENDED), BROWSER_SIGN_OUT]
        except VerificationUnavailable:
            # An outage says nothing against the token: the session stays (until
            # its current token expires; the browser's next refresh tries again).
            return None
        if found.uid == self._uid:
            self._show(found)
        # Another user's token: a switch of user, which the auth-state report handles.
        return None

    @rx.event
    async def on_merge(self, anonymous_token: str, token: str):
        """An anonymous visitor signed in to an existing Google account: move the
        anonymous library into it. Both tokens are verified; the first must be
        anonymous and the second must not."""
        return self._settled(await self._merge(anonymous_token, token))

    async def _merge(self, anonymous_token: str, token: str):
        try:
            source, target = await verified(anonymous_token), await verified(token, check_revoked=True)
        except (TokenRefused, VerificationUnavailable) as error:
            logger.warning("Refused a merge: %s", error)
            return notify("error", MERGE_FAILED)
        if not source.is_anonymous or target.is_anonymous or source.uid == target.uid:
            logger.warning("Refused a merge of %s into %s", source.uid, target.uid)
            return notify("error", MERGE_FAILED)
        await asyncio.to_thread(service.merge_accounts, source, target)
        self._show(target)
        return notify("success", "ゲストのライブラリを引き継ぎました")

    @rx.event
    def on_persistence_error(self, message: str):
        """The browser could not keep the sign-in (spec: log it, end loading).
        The visitor can still sign in for this page's lifetime."""
        logger.error("Error setting persistence: %s", str(message)[:MAX_LOGGED])
        self.loading = False
        return self._settled()

    @rx.event
    def on_error(self, code: str):
        code = str(code)[:80]
        if code in UNREACHABLE:
            return notify("error", UNREACHABLE_TITLE, UNREACHABLE_NOTICE[self.is_anonymous])
        return notify("error", SIGN_IN_FAILED, ERROR_MESSAGES.get(code, "もう一度お試しください。"))
