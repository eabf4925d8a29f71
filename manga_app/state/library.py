"""The visitor's personal library: follows, reading history and progress.

Signed in, the account on the server is the truth and the browser's reading
history (ReadingState, localStorage) mirrors it, so the title page and the
reader read one format whoever is visiting. Never signed in, both follows
and history stay in the browser. On sign-in the browser's data joins the
account; on sign-out the mirror is cleared, so nothing of the account stays
in view. Every server read and write goes through AuthState._uid."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import reflex as rx

from manga_app import reading, routes
from manga_app.auth import payloads, service
from manga_app.auth.repository import HistoryRow
from manga_app.catalogue.held import Snapshot, held_catalogue
from manga_app.catalogue.naming import format_chapter_number
from manga_app.display import relative_time_ja
from manga_app.state.auth import AuthState
from manga_app.state.notify import notify
from manga_app.state.reading import ReadingState

UNKNOWN_SERIES = "この作品は見つかりませんでした"


def _chapter_label(chapter: str) -> str:
    return f"第{chapter}話"


def _mirror(rows: list[HistoryRow], local: list[reading.HistoryEntry], snapshot: Snapshot) -> list[reading.HistoryEntry]:
    """The account's history in the browser format; per series the newer of
    the account's and the browser's entry, read marks united."""
    by_slug = {entry.slug: entry for entry in local}
    merged: list[reading.HistoryEntry] = []
    for row in rows:
        item = snapshot.by_slug.get(row.series_slug)
        chapter = format_chapter_number(row.chapter_hundredths)
        marks = tuple(format_chapter_number(number) for number in row.read)
        server = reading.HistoryEntry(
            slug=row.series_slug,
            title=item.title if item else row.series_slug,
            cover=item.cover_small if item else "",
            chapter=chapter,
            chapter_title="",
            page=row.page,
            offset=row.offset,
            read_at=reading.now_iso(row.updated_at),
            read=marks,
        )
        mine = by_slug.pop(row.series_slug, None)
        newer = mine if mine and (payloads.parse_time(mine.read_at) or row.updated_at) > row.updated_at else server
        if mine and newer is server and mine.chapter == server.chapter:
            newer = reading.HistoryEntry(**{**server.__dict__, "chapter_title": mine.chapter_title})
        union = tuple(dict.fromkeys((*(mine.read if mine else ()), *marks)))
        merged.append(reading.HistoryEntry(**{**newer.__dict__, "read": union}))
    merged.extend(by_slug.values())
    merged.sort(key=lambda entry: entry.read_at, reverse=True)
    return merged[: reading.MAX_SERIES]


class LibraryState(rx.State):
    # Follows of a visitor who is not signed in (JSON list of slugs).
    follows_json: str = rx.LocalStorage("", name="manga_follows", sync=True)
    followed: list[str] = []
    library_items: list[dict[str, str]] = []
    history_items: list[dict[str, str]] = []
    loaded: bool = False
    # Whose account the browser's data mirrors now ("" = the browser's own).
    _synced_uid: str = ""

    async def _uid(self) -> str:
        return (await self.get_state(AuthState))._uid

    async def _reading(self) -> ReadingState:
        return await self.get_state(ReadingState)

    @rx.event
    async def sync(self, _user: dict | str | None = None, _token: str | None = None):
        """After every auth change (it receives that event's two arguments):
        bring the browser and the account together."""
        uid = await self._uid()
        history = await self._reading()
        if uid and uid != self._synced_uid:
            await self._merge_browser_into(uid, history)
            self.follows_json = ""
            self._synced_uid = uid
            await self._pull(uid, history)
        elif not uid and self._synced_uid:
            # Signed out: the account's library leaves the screen and the browser.
            history.save([])
            self.follows_json = ""
            self._synced_uid = ""
        await self._refresh(uid, history)

    async def _merge_browser_into(self, uid: str, history: ReadingState) -> None:
        snapshot = await held_catalogue().snapshot()
        now = datetime.now(UTC)
        known = [entry for entry in history.entries() if entry.slug in snapshot.by_slug]
        latest, marks = payloads.positions_from_history(known, now=now)
        follows = [slug for slug in payloads.parse_follows(self.follows_json) if slug in snapshot.by_slug]
        await asyncio.to_thread(service.merge_browser_data, uid, follows=follows, latest=latest, marks=marks)

    async def _pull(self, uid: str, history: ReadingState) -> None:
        rows = await asyncio.to_thread(service.history, uid)
        snapshot = await held_catalogue().snapshot()
        history.save(_mirror(rows, history.entries(), snapshot))

    @rx.event
    async def pull(self):
        """on_load of pages that show progress (reader, title page, history):
        the account's newest positions from other devices."""
        uid = await self._uid()
        if uid:
            await self._pull(uid, await self._reading())

    @rx.event
    async def load(self):
        """on_load of /library and /history."""
        uid = await self._uid()
        history = await self._reading()
        if uid:
            await self._pull(uid, history)
        await self._refresh(uid, history)

    async def _refresh(self, uid: str, history: ReadingState) -> None:
        self.followed = await asyncio.to_thread(service.followed, uid) if uid else payloads.parse_follows(self.follows_json)
        snapshot = await held_catalogue().snapshot()
        entries = [entry for entry in history.entries() if entry.slug in snapshot.by_slug]
        self.history_items = self._history_view(entries)
        self.library_items = await self._library_view(snapshot, entries)
        auth = await self.get_state(AuthState)
        self.loaded = not auth.loading

    def _history_view(self, entries: list[reading.HistoryEntry]) -> list[dict[str, str]]:
        now = datetime.now(UTC)
        entries = sorted(entries, key=lambda entry: payloads.parse_time(entry.read_at) or datetime.min.replace(tzinfo=UTC), reverse=True)
        return [
            {
                "slug": entry.slug,
                "title": entry.title,
                "cover": entry.cover,
                "chapter": _chapter_label(entry.chapter) + (f" {entry.chapter_title}" if entry.chapter_title else ""),
                "page": f"{entry.page + 1}ページ目",
                "time": relative_time_ja(entry.read_at, now=now),
                "continue_url": routes.chapter_url(entry.slug, entry.chapter),
                "url": routes.manga_url(entry.slug),
            }
            for entry in entries
        ]

    async def _library_view(self, snapshot: Snapshot, entries: list[reading.HistoryEntry]) -> list[dict[str, str]]:
        items = [snapshot.by_slug[slug] for slug in self.followed if slug in snapshot.by_slug]
        last_read: dict[str, int] = {}
        for entry in entries:
            numbers = [payloads.chapter_hundredths(number) for number in (*entry.read, entry.chapter)]
            last_read[entry.slug] = max((number for number in numbers if number is not None), default=-1)
        unread = await asyncio.to_thread(service.unread, last_read, [item.slug for item in items])
        now = datetime.now(UTC)
        items.sort(key=lambda item: item.updated_at, reverse=True)
        return [
            {
                "slug": item.slug,
                "title": item.title,
                "cover": item.cover_small,
                "url": routes.manga_url(item.slug),
                "latest": _chapter_label(routes.format_chapter_number(item.latest_chapter)),
                "updated": relative_time_ja(item.updated_at, now=now),
                # Chapters published after the last one read ("" when none was read yet).
                "unread": f"新着{unread.get(item.slug, 0)}話" if item.slug in last_read and unread.get(item.slug) else "",
            }
            for item in items
        ]

    @rx.event
    async def toggle_follow(self, slug: str):
        """フォロー / フォロー中: the account when signed in, else the browser."""
        slug = payloads.valid_slug(slug)
        snapshot = await held_catalogue().snapshot()
        if slug is None or slug not in snapshot.by_slug:
            return notify("error", UNKNOWN_SERIES)
        following = slug not in self.followed
        uid = await self._uid()
        if uid:
            await asyncio.to_thread(service.set_follow, uid, slug, following)
        else:
            self.follows_json = payloads.dump_follows(payloads.toggle_follow(payloads.parse_follows(self.follows_json), slug))
        await self._refresh(uid, await self._reading())
        return notify("success", "フォローしました" if following else "フォローを解除しました")

    @rx.event
    async def remove_history(self, slug: str):
        uid = await self._uid()
        history = await self._reading()
        if isinstance(slug, str) and len(slug) <= payloads.MAX_SLUG:
            if uid:
                await asyncio.to_thread(service.forget, uid, slug)
            history.save(reading.remove(history.entries(), slug))
        await self._refresh(uid, history)

    @rx.event
    async def clear_history(self):
        uid = await self._uid()
        history = await self._reading()
        if uid:
            await asyncio.to_thread(service.forget, uid, None)
        history.save([])
        await self._refresh(uid, history)

    @rx.event
    async def record_progress(self, slug: str, chapter: str, page: int, offset: float):
        """The reader's hook: where the visitor is now. Signed in, it is stored
        on the server (newest write wins); the reader keeps the browser's
        ReadingState itself, as for every visitor."""
        uid = await self._uid()
        if not uid:
            return None
        now = datetime.now(UTC)
        found = payloads.position(slug, chapter, page, offset, now, now=now)
        snapshot = await held_catalogue().snapshot()
        if found is None or found.slug not in snapshot.by_slug:
            return None
        await asyncio.to_thread(service.record, uid, found)
        return None
