"""Reading-list statuses as the visitor changes them (accounts/lists.py):
from the title page and /library (`set_status`), and by reading the last
chapter of a 完結 series to its end (`check_finished`, chained from the
reader), which says so with an undo.

The library itself is LibraryState's: signed in, the account (every write
through AuthState._uid, a verified token's); otherwise the browser's own
library (LibraryState.follows_json)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import reflex as rx

from manga_app.accounts import lists, payloads, repository, service
from manga_app.core import routes
from manga_app.visitor.auth_state import until_known, visitor_uid
from manga_app.visitor.library_state import BROWSER_LIMIT, TOO_LARGE, UNKNOWN_SERIES, LibraryState
from manga_app.read_models.held import held_catalogue
from manga_app.accounts import reading
from manga_app.visitor.reading_state import ReadingState
from manga_app.visitor.notify import notify

NOT_CHANGED = "状態を変更できませんでした"
UNKNOWN_STATUS = "選べる状態は「読みたい」「読んでる」「読了」「中断」です。"


class ListsState(rx.State):
    # The series just moved to 読了 by reading its last chapter, shown with
    # 元に戻す until undone or dismissed ("" when none).
    finished_slug: str = ""
    finished_title: str = ""
    # The status it had before, and the series whose 読了 this tab undid
    # (reading their last page again does not move them back).
    _undo_to: str = ""
    _declined: list[str] = []

    async def _library(self) -> tuple[str, LibraryState]:
        """Who the visitor is, and its library."""
        return await visitor_uid(self), await self.get_state(LibraryState)

    async def _write(self, uid: str, library: LibraryState, slug: str, status: str) -> tuple[str | None, object]:
        """Store the status: (the one it had, or None when it was not in the
        library; a notice when refused)."""
        if uid:
            try:
                return await asyncio.to_thread(service.set_status, uid, slug, status), None
            except service.FollowLimitReached:
                return None, notify("error", NOT_CHANGED, f"フォローできるのは{repository.MAX_FOLLOWS}作品までです。")
        try:
            current = payloads.parse_library(library.follows_json)
        except payloads.StoreTooLarge:
            return None, notify("error", NOT_CHANGED, TOO_LARGE)
        before = next((entry.status for entry in current if entry.slug == slug), None)
        updated = payloads.with_status(current, slug, status, added=reading.now_iso(datetime.now(UTC)))
        if updated is None:
            return None, notify("error", NOT_CHANGED, BROWSER_LIMIT)
        library.follows_json = payloads.dump_library(updated)
        return before, None

    async def _refresh(self, uid: str, library: LibraryState) -> None:
        await library._refresh(uid, await self.get_state(ReadingState), views=library._on_shelf_page())

    @rx.event
    async def set_status(self, slug: str, status: str):
        """The visitor picks a status (the series joins the library if it was not in it)."""
        uid, library = await self._library()
        if (waiting := await until_known(self, ListsState.set_status(slug, status))) is not None:
            return waiting
        slug = payloads.valid_slug(slug)
        if slug is None or slug not in (await held_catalogue().snapshot()).by_slug:
            return notify("error", NOT_CHANGED, UNKNOWN_SERIES)
        status = lists.valid_status(status)
        if status is None:
            return notify("error", NOT_CHANGED, UNKNOWN_STATUS)
        _before, refused = await self._write(uid, library, slug, status)
        if refused is not None:
            return refused
        if slug == self.finished_slug:
            self.finished_slug = self.finished_title = ""
        await self._refresh(uid, library)
        return notify("success", f"「{lists.LABELS[status]}」にしました")

    @rx.event
    async def check_finished(self, slug: str, chapter: str):
        """Chained from the reader when a chapter was read to its last page:
        the last chapter of a 完結 series in the library moves it to 読了."""
        uid, library = await self._library()
        if await until_known(self, ListsState.check_finished(slug, chapter)) is not None:
            return None  # kept for when the visitor is known (a chained check: no notice)
        slug, key = payloads.valid_slug(slug), payloads.chapter_hundredths(chapter)
        if slug is None or key is None or slug in self._declined:
            return None
        status = (await asyncio.to_thread(service.statuses, uid) if uid else
                  {entry.slug: entry.status for entry in library._browser_library()}).get(slug)
        if status in (None, lists.FINISHED):
            return None
        units = await asyncio.to_thread(service.series_units, slug)
        if units is None or not lists.completes(series_status=units[0], unit_key=key, unit_keys=units[1]):
            return None
        _before, refused = await self._write(uid, library, slug, lists.FINISHED)
        if refused is not None:
            return refused
        item = (await held_catalogue().snapshot()).by_slug.get(slug)
        self.finished_slug, self.finished_title, self._undo_to = slug, item.title if item else "", status
        await self._refresh(uid, library)
        return None

    @rx.event
    async def undo_finished(self):
        """元に戻す: the series goes back to the status it had."""
        uid, library = await self._library()
        if (waiting := await until_known(self, ListsState.undo_finished())) is not None:
            return waiting
        slug, status = self.finished_slug, lists.valid_status(self._undo_to)
        self.finished_slug = self.finished_title = ""
        if not slug or status is None:
            return notify("error", NOT_CHANGED, "元に戻せる変更はありません。")
        _before, refused = await self._write(uid, library, slug, status)
        if refused is not None:
            return refused
        self._declined = [*self._declined, slug][-50:]
        await self._refresh(uid, library)
        return notify("success", f"「{lists.LABELS[status]}」に戻しました")

    @rx.event
    def dismiss_finished(self):
        self.finished_slug = self.finished_title = ""

    @rx.event
    async def opened(self):
        """on_load of the title page: the series' 更新あり is seen (signed in;
        a browser's own library counts its reading instead). Opened before the
        visitor is known, it is kept until then, with the page it came from."""
        if await until_known(self, ListsState.opened()) is not None:
            return None  # an on_load: no notice
        found, uid = routes.match(self.router.url.path or "/"), await visitor_uid(self)
        if uid and found is not None and found.kind is routes.PageKind.MANGA and payloads.valid_slug(found.params.get("slug")):
            await asyncio.to_thread(service.mark_opened, uid, found.params["slug"])
