"""The reader's state: this chapter's page list (decrypted from the published
manifest), its neighbours, the visitor's reader settings and progress.

Only what this visitor sees is held here; the interactive reading itself
(paging, keys, taps, preloading) runs in the browser (assets/js/reader/)."""

from __future__ import annotations

import asyncio
import logging
import weakref

import httpx
import reflex as rx
from sqlmodel import Session

from manga_app import reading, routes
from manga_app.catalogue import repository
from manga_app.catalogue.db import shared_engine
from manga_app.catalogue.views import ChapterContext, ChapterView
from manga_app.config import content_key, get_settings
from manga_app.heads import chapter_label
from manga_app.page_heads import load_chapter
from manga_app.pages import reader_model as model
from manga_app.state.reading import ReadingState

logger = logging.getLogger(__name__)

MANIFEST_TIMEOUT_SECONDS = 10.0
# Pages of the next chapter warmed in the browser cache near the end.
NEXT_CHAPTER_WARM_PAGES = 2


# One HTTP client per event loop (each server worker has its own loop):
# creating a client costs tens of milliseconds, reusing it nothing.
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = weakref.WeakKeyDictionary()


def _client() -> httpx.AsyncClient:
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None or client.is_closed:
        client = _clients[loop] = httpx.AsyncClient(timeout=MANIFEST_TIMEOUT_SECONDS)
    return client


async def fetch_manifest_pages(slug: str, number: str) -> list[dict]:
    """The chapter's page list from the published catalogue (a CDN in
    production), decrypted; ManifestError when it is missing or unreadable."""
    settings = get_settings()
    url = f"{settings.catalogue_base}/manifests/{slug}/{number}.json"
    try:
        response = await _client().get(url)
    except httpx.HTTPError as error:
        raise model.ManifestError(f"manifest request failed: {type(error).__name__}") from error
    if response.status_code != 200:
        raise model.ManifestError(f"manifest answered HTTP {response.status_code}")
    return await asyncio.to_thread(model.decrypt_manifest, response.content, content_key(settings))


def count_view(slug: str, number: str) -> None:
    with Session(shared_engine()) as session:
        chapter = repository.get_chapter(session=session, series_slug=slug, number=number)
        if chapter is not None:
            repository.add_view(session=session, series_id=chapter.series_id, chapter_id=chapter.id)


def _option(chapter: ChapterView) -> dict[str, str]:
    return {"url": chapter.url, "label": chapter_label(chapter), "number": chapter.number}


class ReaderState(rx.State):
    """One visitor's open chapter."""

    # "loading", "ready" or "error" (the manifest could not be read).
    status: str = "loading"
    # One per opening of a chapter. A reload hydrates the browser with the
    # previous opening's state for a moment; its reports are ignored.
    view_id: int = 0
    pages: list[dict] = []
    chapter_url: str = ""
    series_title: str = ""
    series_url: str = ""
    series_direction: str = "rtl"
    chapter_number: str = ""
    chapter_label: str = ""
    prev_url: str = ""
    prev_label: str = ""
    next_url: str = ""
    next_label: str = ""
    chapters: list[dict[str, str]] = []
    resume_page: int = 0
    resume_offset: float = 0.0
    # First pages of the next chapter, once its manifest was fetched.
    next_warm: list[str] = []

    settings_json: str = rx.LocalStorage("", name="manga_reader_settings", sync=True)
    # Today's counted chapter views: a reload never counts twice.
    views_json: str = rx.LocalStorage("", name="manga_reader_views")

    _slug: str = ""
    _cover: str = ""
    _chapter_title: str = ""
    _next_number: str = ""
    # The next chapter's decrypted pages, fetched near the end of this one.
    _prefetched: dict[str, list[dict]] = {}

    @rx.var
    def settings(self) -> dict:
        return model.parse_settings(self.settings_json)

    @rx.var
    def mode(self) -> str:
        return model.effective_mode(model.parse_settings(self.settings_json), self.series_direction)

    @rx.var
    def direction(self) -> str:
        return model.effective_direction(model.parse_settings(self.settings_json), self.series_direction)

    @rx.var
    def preload(self) -> int:
        return model.preload_count(model.parse_settings(self.settings_json)["preload"], len(self.pages))

    @rx.var
    def reader_key(self) -> str:
        return f"{self.chapter_url}#{self.view_id}"

    @rx.var
    def alt_prefix(self) -> str:
        return f"{self.series_title} {self.chapter_label}"

    @rx.event
    async def load(self):
        """on_load: the chapter at this path and its pages."""
        self.view_id += 1
        self.next_warm = []
        if self.status != "loading":
            self.status = "loading"
            yield  # take down the reader the browser was just hydrated with
        params = routes.parse_reader_path(self.router.url.path or "")
        if params is None:
            return  # HeadState.found is False: the layout shows the not-found panel
        # The chapter's rows and its manifest are independent: fetch both at once.
        context, pages = await asyncio.gather(
            asyncio.to_thread(load_chapter, params), self._fetch_pages(params["slug"], params["number"])
        )
        if context is None:
            self.pages = []
            return
        self._show_chapter(context)
        async for update in self._show_pages(pages):
            yield update

    @rx.event
    async def retry(self):
        self.status = "loading"
        yield
        async for update in self._show_pages(await self._fetch_pages(self._slug, self.chapter_number)):
            yield update

    def _show_chapter(self, context: ChapterContext) -> None:
        series, chapter = context.series, context.chapter
        self._slug, self._cover, self._chapter_title = series.slug, series.cover_small, chapter.title
        self.series_title, self.series_url, self.series_direction = series.title, series.url, series.direction
        self.chapter_url, self.chapter_number = chapter.url, chapter.number
        self.chapter_label = chapter_label(chapter)
        self.prev_url = context.previous.url if context.previous else ""
        self.prev_label = chapter_label(context.previous) if context.previous else ""
        self.next_url = context.next.url if context.next else ""
        self.next_label = chapter_label(context.next) if context.next else ""
        self._next_number = context.next.number if context.next else ""
        self.chapters = [_option(item) for item in context.chapters]

    async def _fetch_pages(self, slug: str, number: str) -> list[dict] | None:
        """The chapter's pages (prefetched near the end of the previous
        chapter, else from the manifest), or None when they cannot be read."""
        pages = self._prefetched.get(f"{slug}/{number}")
        self._prefetched = {}
        if pages is not None:
            return pages
        try:
            return await fetch_manifest_pages(slug, number)
        except model.ManifestError as error:
            logger.warning("reader: %s for %s/%s", error, slug, number)
            return None

    async def _show_pages(self, pages: list[dict] | None):
        if pages is None:
            self.pages, self.status = [], "error"
            return
        reading_state = await self.get_state(ReadingState)
        self.resume_page, self.resume_offset = model.resume_position(
            reading_state.entries(), self._slug, self.chapter_number, len(pages)
        )
        self.pages, self.status = pages, "ready"
        yield  # the pages go out now; the bookkeeping below can wait
        self._record(reading_state, self.resume_page, self.resume_offset)
        key = f"{self._slug}/{self.chapter_number}"
        counted, self.views_json = model.claim_view(self.views_json, key, model.view_day())
        if counted:
            await asyncio.to_thread(count_view, self._slug, self.chapter_number)

    def _record(self, reading_state: ReadingState, page: int, offset: float) -> None:
        entry = reading.HistoryEntry(
            slug=self._slug,
            title=self.series_title,
            cover=self._cover,
            chapter=self.chapter_number,
            chapter_title=self._chapter_title,
            page=page,
            offset=offset,
            read_at=reading.now_iso(),
        )
        reading_state.save(reading.record(reading_state.entries(), entry))

    @rx.event
    async def save_progress(self, view_id: int, page: int, offset: float):
        """The browser's reading position (throttled there to every 2 s and
        on page change)."""
        if self.status != "ready" or view_id != self.view_id:
            return
        page, offset = model.clamp_progress(page, offset, len(self.pages))
        self._record(await self.get_state(ReadingState), page, offset)

    @rx.event
    def change_settings(self, change: dict):
        current = model.parse_settings(self.settings_json)
        self.settings_json = model.dump_settings(model.apply_change(current, change, self.series_direction))

    @rx.event
    async def prefetch_next(self):
        """Near the end: fetch the next chapter's manifest so it opens at once,
        and hand its first pages to the browser to warm its cache."""
        if not self._next_number or self.next_warm:
            return
        key = f"{self._slug}/{self._next_number}"
        try:
            pages = await fetch_manifest_pages(self._slug, self._next_number)
        except model.ManifestError:
            return  # the next chapter reports its own error when opened
        self._prefetched = {key: pages}
        field = "saver_url" if model.parse_settings(self.settings_json)["saver"] else "url"
        self.next_warm = [page[field] for page in pages[:NEXT_CHAPTER_WARM_PAGES]]
