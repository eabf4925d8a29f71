"""The reader's state: this chapter's page list (decrypted from the published manifest), its
neighbours, the visitor's reader settings and progress, and the once-a-day view count. Only what
this visitor sees is held here; the reading itself (paging, keys, taps, preloading, per-chapter
positions) runs in the browser (assets/js/reader/). `load` computes only what the page shows, from
the path and cookies, so the server renders the reader with it (manga_app/ssr); an opening's
history, view count and visitor id are the live app's `record_opening`."""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import UTC, datetime

import reflex as rx

from manga_app.reader import images, logic, rules
from manga_app.engagement import view_counts
from manga_app.accounts import reading
from manga_app.core import routes
from manga_app.read_models.titles import ChapterContext
from manga_app.read_models.title_cache import load_chapter
from manga_app.reader.manifest import chapter_pages, fetch_manifest_pages
from manga_app.visitor.auth_state import visitor_uid
from manga_app.visitor.library_state import LibraryState
from manga_app.visitor.lists_state import ListsState
from manga_app.visitor.reading_state import ReadingState

# Pages of the next chapter warmed in the browser cache near the end.
NEXT_CHAPTER_WARM_PAGES = 2


class ReaderState(rx.State):
    """One visitor's open chapter."""

    status: str = "loading"  # "ready", or "error" (the manifest could not be read)
    # One per opening of a chapter. A reload hydrates the browser with the previous opening's state
    # for a moment; its reports are told apart, and a chapter left before its pages arrived is never shown or counted.
    view_id: int = 0
    # The path this state was loaded for (the reader draws only its own).
    loaded_path: str = ""
    pages: list[dict] = []
    chapter_url: str = ""
    series_slug: str = ""
    series_title: str = ""
    series_url: str = ""
    series_direction: str = "rtl"
    webtoon: bool = False  # read as a webtoon: the series' Format, or a chapter of tall strips
    # Double-page view shows the first page alone so the chapter's spreads
    # start pairs (worked out at import; the manifest's first page carries it).
    spread_offset: bool = False
    chapter_number: str = ""
    chapter_label: str = ""
    prev_url: str = ""
    prev_label: str = ""
    next_url: str = ""
    next_label: str = ""
    chapters: list[dict[str, str]] = []
    # Where the series' history reopens this chapter, and when it was saved
    # (epoch ms; 0: no saved position). The browser may know a newer one.
    resume_page: int = 0
    resume_offset: float = 0.0
    resume_at: int = 0
    # First pages of the next chapter, once its manifest was fetched.
    next_warm: list[dict] = []  # the next chapter's first images (images.warm_images)

    # The reader's settings in a cookie, so the server draws a returning
    # reader's own layout; the per-series directions (too many for a cookie)
    # stay in localStorage, under the key that once held every setting.
    settings_cookie: str = rx.Cookie("", name=rules.SETTINGS_COOKIE, max_age=rules.VISITOR_COOKIE_SECONDS, same_site="lax")
    settings_json: str = rx.LocalStorage("", name=rules.SETTINGS_STORAGE_KEY, sync=True)
    # Written by the reader (rules.FIRST_PAGE_COOKIE): where the chapter read last reopens, drawn by the server.
    first_page_cookie: str = rx.Cookie("", name=rules.FIRST_PAGE_COOKIE)
    # A random id for this browser (rules.VISITOR_COOKIE): who "a visitor"
    # is when not signed in. Stored only as a keyed hash on the server (chapter_views).
    visitor_id: str = rx.Cookie("", name=rules.VISITOR_COOKIE, max_age=rules.VISITOR_COOKIE_SECONDS, same_site="lax")

    _cover: str = ""
    _chapter_title: str = ""
    _next_number: str = ""
    # The next chapter's decrypted pages, fetched near the end of this one.
    _prefetched: dict[str, list[dict]] = {}
    # The opening whose pages went out, due for _bookkeeping (a client's own record_opening finds none).
    _opening_due: int = -1
    # When the pages went out (epoch s), the opening's time: _bookkeeping may come after later reports.
    _opening_at: float = 0.0
    _early: tuple = ()  # (slug, chapter, page, offset, at) reported before the on_load of this path ran
    _reported_view: int = -1  # the opening save_progress recorded: its later bookkeeping keeps that position

    def _settings(self) -> dict:
        return logic.combine_settings(self.settings_cookie, self.settings_json)

    @rx.var
    def settings(self) -> dict:
        return self._settings()

    @rx.var
    def first_screen(self) -> str:  # the cookie itself is the browser's, never in the server's HTML
        return rules.first_page_screen(self.first_page_cookie)

    @rx.var
    def mode(self) -> str:
        return logic.effective_mode(self._settings(), self.webtoon)

    @rx.var
    def direction(self) -> str:
        settings = self._settings()
        return logic.effective_direction(settings, self.series_slug, self.series_direction, self.webtoon)

    @rx.var
    def direction_choice(self) -> str:
        return logic.direction_choice(self._settings(), self.series_slug)

    @rx.var
    def preload(self) -> int:
        return logic.preload_count(self._settings()["preload"], len(self.pages))

    @rx.var
    def alt_prefix(self) -> str:
        return f"{self.series_title} {self.chapter_label}"

    @rx.event
    async def load(self):
        """on_load: the chapter at this path, as the page shows it (the server renders with this
        too); then the opening is recorded, in the live app. Leaving for another page before this
        is done cancels it: Reflex supersedes an unfinished on_load chain with the next
        navigation's, so a chapter left before its pages arrived is never shown or counted.
        Meanwhile the reader shows its loading panel (MangaReader draws only the path it was
        loaded for); `status` stays, since on a reload the tab's earlier state must not hide the
        server's page."""
        self.view_id += 1
        self.next_warm = []
        path = self.router.url.path or ""
        params = routes.parse_reader_path(path)
        if params is None:
            return  # HeadState.found is False: the layout shows the not-found panel
        migrated = logic.migrated_settings_cookie(self.settings_cookie, self.settings_json)
        if migrated is not None:
            self.settings_cookie = migrated
        prefetched = self._take_prefetched(params["slug"], params["number"])
        # The chapter's rows and its manifest are independent: fetch both at once.
        context, pages = await asyncio.gather(
            asyncio.to_thread(load_chapter, params), chapter_pages(params["slug"], params["number"], prefetched)
        )
        if context is None:
            self.pages, self.loaded_path = [], ""
            return
        self._show_chapter(context, pages)
        shown = await self._show_pages(pages)
        self.loaded_path = path
        if shown:
            yield ReaderState.record_opening(self.view_id)

    @rx.event(background=True)
    async def record_opening(self, view_id: int):
        return await self._bookkeeping(view_id)

    @rx.event(background=True)
    async def retry(self):
        async with self:
            self.status = "loading"
            view_id, slug, number = self.view_id, self.series_slug, self.chapter_number
        pages = await chapter_pages(slug, number, None)
        async with self:
            if self.view_id != view_id:
                return
            shown = await self._show_pages(pages)
        return await self._bookkeeping(view_id) if shown else None

    def _take_prefetched(self, slug: str, number: str) -> list[dict] | None:
        pages = self._prefetched.get(f"{slug}/{number}")
        self._prefetched = {}
        return pages

    def _show_chapter(self, context: ChapterContext, pages: list[dict] | None) -> None:
        series, chapter = context.series, context.chapter
        self._cover, self._chapter_title = series.cover_small, chapter.title
        self.series_slug, self.series_title, self.series_url = series.slug, series.title, series.url
        self.series_direction = series.direction
        self.webtoon = rules.is_webtoon(series.direction, ((p["width"], p["height"]) for p in pages or ()))
        self.chapter_url, self.chapter_number = chapter.url, chapter.number
        self.chapter_label = routes.unit_label(chapter.number, chapter.title)
        before, after = context.previous, context.next
        self.prev_url, self.prev_label = (before.url, routes.unit_label(before.number, before.title)) if before else ("", "")
        self.next_url, self.next_label = (after.url, routes.unit_label(after.number, after.title)) if after else ("", "")
        self._next_number = after.number if after else ""
        self.chapters = [logic.chapter_option(item) for item in context.chapters]

    async def _show_pages(self, pages: list[dict] | None) -> bool:
        if pages is None:
            self.pages, self.status = [], "error"
            return False
        reading_state = await self.get_state(ReadingState)
        self.resume_page, self.resume_offset, self.resume_at = logic.resume_position(
            reading_state._entries(), self.series_slug, self.chapter_number, len(pages)
        )
        resume_at = self.resume_at
        hint = rules.first_page_hint({rules.FIRST_PAGE_COOKIE: self.first_page_cookie})
        if resume_at == 0 and hint.key == f"{self.series_slug}/{self.chapter_number}" and hint.page < len(pages):
            # No history here: the page this browser last left the chapter at.
            self.resume_page = hint.page
        self.pages, self.status, self._opening_due, self._opening_at = pages, "ready", self.view_id, time.time()
        self.spread_offset = logic.spread_offset_of(pages)
        return True

    async def _bookkeeping(self, view_id: int):
        """After the pages went out: the chapter joins the history (and, signed in, the account: the
        reader's first reports may have come before its on_load), and the view is counted (once per
        visitor and day, decided by the database)."""
        async with self:
            if self.view_id != view_id or self._opening_due != view_id or self.status != "ready":
                return None
            self._opening_due = -1
            if not rules.visitor_id(self.visitor_id):
                # A client that came without the id its page makes, or with one it made up.
                self.visitor_id = secrets.token_urlsafe(18)
            reading_state = await self.get_state(ReadingState)
            opening = None
            early, self._early = self._early, ()
            if self._reported_view != view_id:
                at = datetime.fromtimestamp(self._opening_at, UTC)
                page, offset = logic.clamp_progress(*rules.opening_position(
                    (self.resume_page, self.resume_offset), early, (self.series_slug, self.chapter_number), self._opening_at
                ), len(self.pages))
                self._record(reading_state, page, offset, at)
                opening = (page, offset, int(at.timestamp() * 1000))
            uid = await visitor_uid(self)
            slug, number, browser_id = self.series_slug, self.chapter_number, self.visitor_id
            address = self.router.session.client_ip
        await asyncio.to_thread(
            view_counts.count_chapter_view, slug, number, browser_id=browser_id, uid=uid, address=address, day=logic.view_day()
        )
        # Not yet known who reads (uid ""): LibraryState.sync sends the history up once it is.
        return LibraryState.record_progress(slug, number, *opening) if opening and uid else None

    def _record(self, reading_state: ReadingState, page: int, offset: float, at: datetime) -> None:
        entry = reading.HistoryEntry(
            slug=self.series_slug, title=self.series_title, cover=self._cover, chapter=self.chapter_number,
            chapter_title=self._chapter_title, page=page, offset=offset, read_at=reading.now_iso(at),
        )
        # Read once its last page (or the end card, reported as the last page) was reached.
        reading_state._save(reading.record(reading_state._entries(), entry, finished=page + 1 >= len(self.pages)))

    @rx.event
    async def save_progress(self, view_id: int, slug: str, chapter: str, page: int, offset: float, read_at: int):
        """The browser's reading position (throttled there to every 2 s, at once on a page change,
        and a last time when the reader goes away). The browser has already kept it in its own
        per-chapter store; here it joins the series' history and, signed in, the account."""
        slug, chapter = logic.report_key(slug), logic.report_key(chapter)
        if not slug or not chapter:
            return None
        now = datetime.now(UTC)
        at = logic.device_time(read_at, now)
        reading_state = await self.get_state(ReadingState)
        events = []  # read to the end, the last chapter of a 完結 series finishes it (読了)
        opening = routes.parse_reader_path(self.router.url.path or "") or {}
        if (slug, chapter) == (opening.get("slug"), opening.get("number")) != (self.series_slug, self.chapter_number):
            self._early = (slug, chapter, page, offset, at.timestamp())  # rules.opening_position
            return None
        if slug == self.series_slug and chapter == self.chapter_number:
            if self.status != "ready" or view_id != self.view_id:
                return None  # the previous opening of this chapter, shown for a moment on reload
            page, offset = logic.clamp_progress(page, offset, len(self.pages))
            self._record(reading_state, page, offset, at)
            self._reported_view = view_id
            events = [ListsState.check_finished(slug, chapter)] if page + 1 >= len(self.pages) else []
        else:
            # The last report of a chapter the visitor has just left: its position
            # is kept, but it does not become the series' latest chapter again.
            page, offset = logic.clamp_progress(page, offset, logic.MAX_SIDE)
            reading_state._save(reading.left_at(reading_state._entries(), slug, chapter, page, offset))
        if not await visitor_uid(self):
            # Not signed in: nothing goes to an account, and with state in
            # Redis a chained event is one more lock, load and save.
            return events or None
        return [LibraryState.record_progress(slug, chapter, page, offset, int(at.timestamp() * 1000)), *events]

    @rx.event
    def change_settings(self, change: dict):
        current = self._settings()
        updated = logic.apply_change(current, change, slug=self.series_slug, webtoon=self.webtoon)
        self.settings_cookie, self.settings_json = logic.split_settings(updated)

    @rx.event(background=True)
    async def prefetch_next(self):
        """Near the end: fetch the next chapter's manifest so it opens at once,
        and hand its first pages to the browser to warm its cache."""
        async with self:
            if not self._next_number or self.next_warm:
                return
            view_id, slug, number = self.view_id, self.series_slug, self._next_number
        try:
            pages = await fetch_manifest_pages(slug, number)
        except logic.ManifestError:
            return  # the next chapter reports its own error when opened
        async with self:
            if self.view_id != view_id:
                return
            self._prefetched = {f"{slug}/{number}": pages}
            self.next_warm = images.warm_images(pages, saver=self._settings()["saver"], count=NEXT_CHAPTER_WARM_PAGES)
