"""The head of whatever page lives at a path, looked up in the catalogue.

Used by the server for the first HTML response (and its status: None means
404) and by HeadState after every client-side navigation."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from dataclasses import replace

from sqlmodel import Session

from manga_app import heads, reader_pages, reader_rules
from manga_app.catalogue import views
from manga_app.catalogue.db import shared_engine
from manga_app.catalogue.held import held_catalogue
from manga_app.config import get_settings
from manga_app.recent import MISSING, Recent
from manga_app.routes import PageKind, RouteMatch
from manga_app.seo import PageHead

STATIC_KINDS = frozenset({PageKind.HOME, PageKind.GENRES, PageKind.SEARCH, PageKind.LIBRARY, PageKind.HISTORY})


# A title's series and chapter rows, read by its page's state, its head, and
# every reader page of it (state and head): one query per title per
# CATALOGUE_REFRESH_SECONDS and catalogue version in each process, not two or
# three per visit; as fresh as the held catalogue (views counted meanwhile
# show that much later). An unknown title is not kept: it may be imported now.
_titles: Recent[tuple[views.SeriesView, tuple[views.ChapterView, ...]]] | None = None


def _load_title(session: Session | None, slug: str) -> tuple[views.SeriesView, tuple[views.ChapterView, ...]] | None:
    global _titles
    settings = get_settings()
    if _titles is None:
        _titles = Recent(size=4096, seconds=settings.catalogue_refresh_seconds)
    key, now = (str(shared_engine().url), held_catalogue().current.version, slug), time.monotonic()
    found = _titles.get(key, now)
    if found is MISSING:
        with contextlib.nullcontext(session) if session is not None else Session(shared_engine()) as used:
            found = views.load_title(session=used, slug=slug, media_base_url=settings.media_base_url)
        if found is not None:
            _titles.put(key, found, now)
    return found


def load_title(slug: str) -> tuple[views.SeriesView, tuple[views.ChapterView, ...]] | None:
    return _load_title(None, slug)


def _chapter(session: Session | None, params: dict[str, str]) -> views.ChapterContext | None:
    title = _load_title(session, params["slug"])
    context = None if title is None else views.chapter_context(title, params["number"])
    if context is None or params.get("chapter_slug") not in ("", context.chapter.slug):
        return None
    return context


def load_chapter(params: dict[str, str]) -> views.ChapterContext | None:
    """The chapter a reader path names; a chapter slug, when given, must be the chapter's."""
    return _chapter(None, params)


def load_reader(
    params: dict[str, str], hint: reader_rules.FirstPageHint | None = None
) -> tuple[views.ChapterContext, dict | None] | None:
    """A reader path's chapter, and its first page for the head's first
    paint. One session: this is on the way to every reader page's first byte."""
    with Session(shared_engine()) as session:
        context = _chapter(session, params)
        if context is None:
            return None
        series, chapter = context.series, context.chapter
        pages = reader_pages.chapter_pages(
            session=session, series_slug=series.slug, number=chapter.number, media_base_url=get_settings().media_base_url
        )
    if not pages:
        return context, None
    webtoon = reader_rules.is_webtoon(series.direction, ((page["width"], page["height"]) for page in pages))
    paint = reader_rules.first_paint(
        slug=series.slug,
        number=chapter.number,
        first_page=pages[0],
        webtoon=webtoon,
        direction=reader_rules.series_default_direction(series.direction, webtoon),
        second_page=pages[1] if len(pages) > 1 else None,
        preload=reader_rules.preload_url(pages, f"{series.slug}/{chapter.number}", hint),
        visitor=hint,
    )
    return context, paint


async def resolve_head(
    found: RouteMatch | None, path: str, *, cookies: Mapping[str, str] | None = None
) -> PageHead | None:
    """`cookies`: the request's, for the first HTML response (the reader's
    first-page hint, see reader_rules.first_page_hint)."""
    settings = get_settings()
    if found is None:
        return None
    if found.kind in STATIC_KINDS:
        return heads.static_head(found.kind, site_names=settings.names, origin=settings.origin)
    if found.kind is PageKind.GENRE:
        snapshot = await held_catalogue().snapshot()
        genre = next((genre for genre in snapshot.genres if genre.name == found.params["name"]), None)
        return None if genre is None else heads.genre_head(genre.name, genre.total, site_name=settings.site_name, origin=settings.origin)
    if found.kind is PageKind.MANGA:
        title = await asyncio.to_thread(load_title, found.params["slug"])
        return None if title is None else heads.title_head(*title, site_name=settings.site_name, origin=settings.origin)
    if found.kind is PageKind.READER:
        loaded = await asyncio.to_thread(load_reader, found.params, reader_rules.first_page_hint(cookies))
        if loaded is None:
            return None
        context, paint = loaded
        head = heads.reader_head(context, path, site_name=settings.site_name, origin=settings.origin)
        return replace(head, first_paint=paint)
    return None
