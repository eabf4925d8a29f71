"""The visitor's personal library: follows, reading history and progress.

Signed in, the account on the server is the truth and the browser's stores
(the reader's history in ReadingState, localStorage) mirror it, so the title
page and the reader read one format whoever is visiting. A visitor who never
signed in keeps follows and history in the browser only.

The browser records whose library its stores hold (`owner`: a uid, or ""
for the browser's own, a guest's). On every auth change (`sync`):
- signed in, stores of this account: what the browser read since the last
  sync goes up, then the account's history comes down;
- signed in, a guest's stores: they join the account (the sign-in merge);
- signed in, another account's stores: dropped, never merged;
- signed out, an account's stores: wiped, so nothing of it stays in view or
  becomes the next guest's.
Every server read and write goes through AuthState._uid (a verified token)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import reflex as rx

from manga_app.accounts import reading
from manga_app.core import browser, routes
from manga_app.accounts import lists, mirror, payloads, repository, service, shelves, unread
from manga_app.read_models.held import Snapshot, held_catalogue
from manga_app.visitor.auth_state import AuthState, holds_the_account, until_known, visitor_uid
from manga_app.visitor.notification_state import NotificationState
from manga_app.visitor.notify import notify
from manga_app.visitor.reading_state import ReadingState
from manga_app.cards.records import TabLink

UNKNOWN_SERIES = "この作品は見つかりませんでした"
NOT_SAVED = "読んだ位置を保存できませんでした"
NOT_REMOVED = "閲覧履歴から削除できませんでした"
TOO_LARGE = "ブラウザに保存されたデータが大きすぎます"
BROWSER_LIMIT = f"ログインせずにフォローできるのは{payloads.MAX_MERGE}作品までです。ログインするともっとフォローできます。"


def _looks(snapshot: Snapshot):
    def look(slug: str) -> mirror.SeriesLook | None:
        item = snapshot.by_slug.get(slug)
        return mirror.SeriesLook(item.title, item.cover_small or item.cover) if item else None

    return look


def _known(entries: list[reading.HistoryEntry], snapshot: Snapshot) -> list[reading.HistoryEntry]:
    return [entry for entry in entries if entry.slug in snapshot.by_slug]


@holds_the_account
class LibraryState(rx.State):
    # The library of a visitor who is not signed in (payloads.parse_library).
    follows_json: str = rx.LocalStorage("", name="manga_follows", sync=True)
    # Whose library the browser's stores hold: a uid, or "" (a guest's own).
    owner: str = rx.LocalStorage("", name=browser.LIBRARY_OWNER_STORAGE_KEY, sync=True)
    followed: list[str] = []
    # slug -> reading-list status (lists.STATUSES) of every followed series.
    statuses: dict[str, str] = {}
    library_items: list[shelves.LibraryCard] = []
    library_tabs: list[TabLink] = []
    library_sorts: list[TabLink] = []
    history_items: list[shelves.HistoryCard] = []
    loaded: bool = False
    # The account this session last brought the browser's stores together with.
    _synced_uid: str = ""

    async def _auth(self) -> AuthState:
        return await self.get_state(AuthState)

    async def _reading(self) -> ReadingState:
        return await self.get_state(ReadingState)

    def _on_shelf_page(self) -> bool:
        found = routes.match(self.router.url.path or "/")
        return found is not None and found.kind.page.shelves

    # --- bringing the browser and the account together ---------------------

    @rx.event
    async def sync(self, _first: object = None, _second: object = None):
        """After every auth event (it receives that event's arguments)."""
        auth, history = await self._auth(), await self._reading()
        uid = await visitor_uid(self)
        notes: list = []
        if uid:
            notes = await self._adopt(uid, history)
        elif not auth.loading and (self.owner or self._synced_uid):
            await self._wipe(history)
        await self._refresh(uid, history, views=self._on_shelf_page())
        return notes

    async def _adopt(self, uid: str, history: ReadingState) -> list:
        """The account's library into the browser, after the browser's news
        went up (see the module docstring)."""
        snapshot = await held_catalogue().snapshot()
        notes: list = []
        owner = self.owner
        if owner == uid:
            notes += await self._push(uid, history, snapshot)
        elif owner == "":
            notes += await self._merge_guest(uid, history, snapshot)
        rows = await asyncio.to_thread(service.history, uid)
        self.owner, self.follows_json, self._synced_uid = uid, "", uid
        mirrored = reading.dump_history(mirror.mirror(rows, history._entries(), _looks(snapshot)))
        if mirrored != history.history_json:  # an unchanged store is not sent again
            history.history_json = mirrored
        return notes

    async def _push(self, uid: str, history: ReadingState, snapshot: Snapshot) -> list:
        """What this account read in the browser that the server lacks."""
        try:
            payloads.check_history_size(history.history_json)
        except payloads.StoreTooLarge:
            return [notify("error", TOO_LARGE, "閲覧履歴を同期できませんでした。")]
        rows = await asyncio.to_thread(service.history, uid)
        news = mirror.unsent(_known(history._entries(), snapshot), rows)
        if news:
            latest, marks = payloads.positions_from_history(news, now=datetime.now(UTC))
            await asyncio.to_thread(service.merge_browser_data, uid, latest=latest, marks=marks)
        return []

    async def _merge_guest(self, uid: str, history: ReadingState, snapshot: Snapshot) -> list:
        """A guest's follows and history join the account they signed in to."""
        try:
            payloads.check_history_size(history.history_json)
            follows = payloads.parse_library(self.follows_json)
        except payloads.StoreTooLarge:
            return [notify("error", TOO_LARGE, "このブラウザのフォローと閲覧履歴は引き継げませんでした。")]
        latest, marks = payloads.positions_from_history(_known(history._entries(), snapshot), now=datetime.now(UTC))
        follows = [entry for entry in follows if entry.slug in snapshot.by_slug]
        refused = await asyncio.to_thread(service.merge_browser_data, uid, follows=follows, latest=latest, marks=marks)
        if refused:
            return [notify("warning", "一部のフォローを引き継げませんでした",
                           f"フォローできるのは{repository.MAX_FOLLOWS}作品までです（{refused}作品が対象外）。")]
        return []

    def _forget_account(self) -> None:
        """The session was suspended (visitor/auth_state.py): nothing of the account
        stays in view, and nothing the browser holds goes to it until a
        fresh token proves who it is. The browser's own stores are left
        alone: they are the browser's, and come back from it."""
        self.followed, self.statuses, self.library_items, self.history_items = [], {}, [], []
        self.loaded, self._synced_uid = False, ""

    async def _wipe(self, history: ReadingState) -> None:
        """Signed out: the account's stores leave the browser. What was read
        here since the last sync goes to that account first (it was verified
        in this session)."""
        if self._synced_uid and self.owner == self._synced_uid:
            await self._push(self._synced_uid, history, await held_catalogue().snapshot())
        history._save([])
        self.follows_json, self.owner, self._synced_uid = "", "", ""

    @rx.event
    async def pull(self):
        """on_load of pages that show progress: the account's newest
        positions from other devices (once this browser holds its stores)."""
        uid = await visitor_uid(self)
        if uid and self.owner == uid:
            return await self._adopt(uid, await self._reading())
        return None

    @rx.event
    async def load(self):
        """on_load of /library and /history."""
        notes = await self.pull()
        uid = await visitor_uid(self)
        await self._refresh(uid, await self._reading(), views=True)
        return notes

    def _browser_library(self) -> list[payloads.BrowserFollow]:
        try:
            return payloads.parse_library(self.follows_json)
        except payloads.StoreTooLarge:
            return []

    async def _refresh(self, uid: str, history: ReadingState, *, views: bool) -> None:
        library = [] if uid else self._browser_library()
        statuses = await asyncio.to_thread(service.statuses, uid) if uid else {e.slug: e.status for e in library}
        if statuses != self.statuses:  # an unchanged library is not sent again
            self.statuses = statuses
        self.followed = list(statuses)
        # The header's 通知 count follows the library (no query when it is empty).
        await (await self.get_state(NotificationState))._follow(uid, self.followed)
        if not views:
            return
        snapshot = await held_catalogue().snapshot()
        entries = _known(history._entries(), snapshot)
        now = datetime.now(UTC)
        self.history_items = shelves.history_cards(entries, now=now)
        if uid:
            figures = await asyncio.to_thread(service.account_library, uid)
        else:
            marks = shelves.browser_marks(entries)
            figures = await asyncio.to_thread(service.browser_library, [
                unread.BrowserEntry(e.slug, e.status, payloads.parse_time(e.added), *marks.get(e.slug, ((), None)))
                for e in library if e.slug in snapshot.by_slug
            ])
        items = {row.slug: snapshot.by_slug[row.slug] for row in figures if row.slug in snapshot.by_slug}
        view = shelves.library_view(figures, items, lists.parse_query(self.router.url.query or ""), now=now)
        self.library_items, self.library_tabs, self.library_sorts = view.cards, view.tabs, view.sorts
        self.loaded = not (await self._auth()).loading

    # --- what the visitor does ---------------------------------------------

    @rx.event
    async def set_follow(self, slug: str, following: bool):
        """フォロー (`following`) / 解除: the account when signed in, else the
        browser. A state, not a toggle: sent again (after a lost connection), it changes nothing."""
        uid = await visitor_uid(self)
        if (waiting := await until_known(self, LibraryState.set_follow(slug, following))) is not None:
            return waiting
        slug = payloads.valid_slug(slug)
        snapshot = await held_catalogue().snapshot()
        if slug is None or slug not in snapshot.by_slug or not isinstance(following, bool):
            return notify("error", UNKNOWN_SERIES)
        if uid:
            try:
                await asyncio.to_thread(service.set_follow, uid, slug, following)
            except service.FollowLimitReached:
                return notify("error", "フォローできませんでした", f"フォローできるのは{repository.MAX_FOLLOWS}作品までです。")
        else:
            try:
                current = payloads.parse_library(self.follows_json)
            except payloads.StoreTooLarge:
                return notify("error", "フォローできませんでした", TOO_LARGE)
            if following and any(entry.slug == slug for entry in current):
                updated = current
            elif following:
                updated = payloads.with_status(current, slug, lists.DEFAULT, added=reading.now_iso(datetime.now(UTC)))
            else:
                updated = [entry for entry in current if entry.slug != slug]
            if updated is None:
                return notify("error", "フォローできませんでした", BROWSER_LIMIT)
            self.follows_json = payloads.dump_library(updated)
        await self._refresh(uid, await self._reading(), views=self._on_shelf_page())
        return notify("success", "フォローしました" if following else "フォローを解除しました")

    @rx.event
    async def remove_history(self, slug: str):
        history, uid = await self._reading(), await visitor_uid(self)
        if (waiting := await until_known(self, LibraryState.remove_history(slug))) is not None:
            return waiting
        slug = payloads.valid_slug(slug)
        entries = history._entries()
        if slug is None:
            return notify("error", NOT_REMOVED, "この作品は見つかりませんでした。")
        removed = await asyncio.to_thread(service.forget, uid, slug, now=datetime.now(UTC)) if uid else 0
        if not removed and reading.entry_for(entries, slug) is None:
            return notify("error", NOT_REMOVED, "この作品は閲覧履歴にありません。")
        history._save(reading.remove(entries, slug))
        await self._refresh(uid, history, views=self._on_shelf_page())
        return notify("success", "閲覧履歴から削除しました")

    @rx.event
    async def clear_history(self):
        history, uid = await self._reading(), await visitor_uid(self)
        if (waiting := await until_known(self, LibraryState.clear_history())) is not None:
            return waiting
        if uid:
            await asyncio.to_thread(service.forget, uid, None, now=datetime.now(UTC))
        history._save([])
        await self._refresh(uid, history, views=self._on_shelf_page())
        return notify("success", "閲覧履歴をすべて削除しました")

    @rx.event
    async def record_progress(self, slug: str, chapter: str, page: int, offset: float, read_at: int):
        """The reader's position (read_at: the device's clock, epoch ms),
        chained from ReaderState.save_progress. Nothing for a visitor who is
        not signed in (the reader keeps the browser's history itself);
        signed in, it is stored on the server, the newest write winning."""
        uid = await visitor_uid(self)
        if not uid:
            return None
        found = payloads.reported_position(slug, chapter, page, offset, read_at, now=datetime.now(UTC))
        if found is None:
            return notify("error", NOT_SAVED, "読んだ位置の形式が正しくありません。")
        page_count = await asyncio.to_thread(service.chapter_page_count, found.slug, found.chapter_hundredths)
        if page_count is None:
            return notify("error", NOT_SAVED, "この話は見つかりませんでした。")
        # Read (既読) once the last page was reached: the catalogue says which that is.
        await asyncio.to_thread(service.record, uid, payloads.at_page_of(found, page_count))
        return None
