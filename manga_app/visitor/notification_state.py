"""The reader's notifications: the header's 通知 count and /notifications.

The count is worked out from publication times and the reader's one seen
mark (accounts/notifications.py). LibraryState hands over who is signed in
and what they follow whenever it learns it (`_follow`); a visitor with an
empty library costs no query. When the operator publishes, the server
pushes `published` (web/publish_push.py) to every open tab: only a tab
whose reader follows one of the series asks the database again."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime

import reflex as rx

from manga_app.accounts import service
from manga_app.visitor.auth_state import AuthState, holds_the_account, visitor_uid
from manga_app.core import routes
from manga_app.core.pages import PageKind
from manga_app.read_models.held import held_catalogue
from manga_app.visitor.notify import notify
from manga_app.cards.records import Moment, SeriesCard, moment, phrase_parts

# At most this many series in one push (a publish of more is told as a count).
MAX_PUSHED = 1000
MAX_SHOWN_COUNT = 99


@dataclass
class NotificationCard(SeriesCard):
    """A new chapter or volume on /notifications."""

    unit: str = ""
    read_url: str = ""
    published: Moment = field(default_factory=Moment)
    seen: bool = False


@holds_the_account
class NotificationState(rx.State):
    count: int = 0
    items: list[NotificationCard] = []
    loaded: bool = False
    # Who the count is of, and the series they follow (LibraryState._refresh).
    _uid: str = ""
    _followed: list[str] = []

    @rx.var
    def badge(self) -> str:
        """The header's badge: "" when nothing is unseen."""
        if self.count <= 0:
            return ""
        return f"{MAX_SHOWN_COUNT}+" if self.count > MAX_SHOWN_COUNT else str(self.count)

    def _on_page(self) -> bool:
        found = routes.match(self.router.url.path or "/")
        return found is not None and found.kind is PageKind.NOTIFICATIONS

    async def _follow(self, uid: str, followed: list[str]) -> None:
        """Who is signed in and what they follow changed (or was read again)."""
        self._uid, self._followed = uid, list(followed)
        if self._on_page():
            await self._read()
        else:
            self.count = await asyncio.to_thread(service.unseen_notifications, uid, self._followed)

    async def _read(self) -> None:
        """Show the new units and mark them seen (the page is open)."""
        uid = await visitor_uid(self)
        rows = await asyncio.to_thread(service.read_notifications, uid) if uid and self._followed else []
        snapshot = await held_catalogue().snapshot()
        now = datetime.now(UTC)
        cards = []
        for row in rows:
            item = snapshot.by_slug.get(row.series_slug)
            if item is None:
                continue  # removed from the catalogue since
            cards.append(NotificationCard(
                slug=item.slug, title=item.title, parts=phrase_parts(item.title), url=routes.manga_url(item.slug),
                cover=item.cover_small or item.cover, unit=row.unit.label, read_url=row.unit.url,
                published=moment(row.unit.published_at, now=now), seen=row.seen,
            ))
        self.items, self.count = cards, 0
        self.loaded = not (await self.get_state(AuthState)).loading

    @rx.event
    async def load(self):
        """on_load of /notifications (LibraryState.sync reads it again once the reader is known)."""
        await self._read()

    @rx.event
    async def published(self, slugs: object = None):
        """Pushed by the server after a publish: the series that gained units."""
        if not isinstance(slugs, list) or len(slugs) > MAX_PUSHED or not all(isinstance(slug, str) for slug in slugs):
            return notify("error", "通知を受け取れませんでした", "お知らせの形式が正しくありません。")
        uid = await visitor_uid(self)
        followed = set(self._followed)
        mine = [slug for slug in slugs if slug in followed]
        if not uid or uid != self._uid or not mine:
            return None
        if self._on_page():
            await self._read()
        else:
            self.count = await asyncio.to_thread(service.unseen_notifications, uid, self._followed)
        item = (await held_catalogue().snapshot()).by_slug.get(mine[0])
        title = f"「{item.title}」" if item is not None else "フォロー中の作品"
        more = f"ほか{len(mine) - 1}作品" if len(mine) > 1 else ""
        return notify("info", "新しい話が公開されました", f"{title}{more}に新しい話があります。通知から読めます。")

    def _forget_account(self) -> None:
        """The session was suspended or signed out: nothing of the account stays."""
        self._uid, self._followed, self.count, self.items, self.loaded = "", [], 0, [], False
