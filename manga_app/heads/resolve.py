"""The head of whatever page lives at a path, looked up in the catalogue
(None: no page lives there, a 404). Used by HeadState."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from sqlmodel import Session

from manga_app.core import discovery as core_discovery
from manga_app.core import routes
from manga_app.heads import build
from manga_app.read_models import discovery
from manga_app.read_models.discovery import held_board
from manga_app.read_models import titles
from manga_app.core.db import shared_engine
from manga_app.read_models.held import held_catalogue
from manga_app.core.config import get_settings
from manga_app.core.recent import MISSING, Recent
from manga_app.core.routes import PageKind, RouteMatch
from manga_app.heads.seo import PageHead


# A title's series and chapter rows, read by its page's state, its head, and
# every reader page of it (state and head): one query per title per
# CATALOGUE_REFRESH_SECONDS and catalogue version in each process, not two or
# three per visit; as fresh as the held catalogue (views counted meanwhile
# show that much later). An unknown title is not kept: it may be imported now.
_titles: Recent[tuple[titles.SeriesView, tuple[titles.ChapterView, ...]]] | None = None


def _load_title(session: Session | None, slug: str) -> tuple[titles.SeriesView, tuple[titles.ChapterView, ...]] | None:
    global _titles
    settings = get_settings()
    if _titles is None:
        _titles = Recent(size=4096, seconds=settings.catalogue_refresh_seconds)
    key, now = (str(shared_engine().url), held_catalogue().current.version, slug), time.monotonic()
    found = _titles.get(key, now)
    if found is MISSING:
        with contextlib.nullcontext(session) if session is not None else Session(shared_engine()) as used:
            found = titles.load_title(session=used, slug=slug, media_base_url=settings.media_base_url)
        if found is not None:
            _titles.put(key, found, now)
    return found


def load_title(slug: str) -> tuple[titles.SeriesView, tuple[titles.ChapterView, ...]] | None:
    return _load_title(None, slug)


def _chapter(session: Session | None, params: dict[str, str]) -> titles.ChapterContext | None:
    title = _load_title(session, params["slug"])
    context = None if title is None else titles.chapter_context(title, params["number"])
    if context is None or params.get("chapter_slug") not in ("", context.chapter.slug):
        return None
    return context


def load_chapter(params: dict[str, str]) -> titles.ChapterContext | None:
    """The chapter a reader path names; a chapter slug, when given, must be the chapter's."""
    return _chapter(None, params)


async def _genre_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    snapshot = await held_catalogue().snapshot()
    genre = next((genre for genre in snapshot.genres if genre.name == found.params["name"]), None)
    return None if genre is None else build.genre_head(genre.name, genre.total, site_name=settings.site_name, origin=settings.origin)


async def _title_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    title = await asyncio.to_thread(load_title, found.params["slug"])
    return None if title is None else build.title_head(*title, site_name=settings.site_name, origin=settings.origin)


async def _reader_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    context = await asyncio.to_thread(load_chapter, found.params)
    return None if context is None else build.reader_head(context, path, site_name=settings.site_name, origin=settings.origin)


async def _ranking_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    wanted = core_discovery.parse_ranking_query(query)
    board = await held_board().board()
    if wanted.genre and not discovery.known_genre(board, wanted.genre):
        return None
    listing = discovery.ranking_listing(board, wanted.period, wanted.genre, wanted.page, core_discovery.RANKING_PER_PAGE)
    entries = [(ranked.rank, item.title, routes.manga_url(item.slug)) for item, ranked in listing.items]
    return build.ranking_head(wanted.period, wanted.genre, listing.page, entries, site_name=settings.site_name,
                              origin=settings.origin)


async def _calendar_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    wanted = core_discovery.parse_calendar_query(query, now=datetime.now(UTC))
    return build.calendar_head(wanted.day, wanted.chosen, wanted.page, site_name=settings.site_name, origin=settings.origin)


# The heads of the pages that declare none (core/pages.py): built from the
# catalogue row their path names, None when there is no such row (a 404).
CATALOGUE_HEADS: dict[PageKind, Callable[[RouteMatch, str, str], Awaitable[PageHead | None]]] = {
    PageKind.GENRE: _genre_head,
    PageKind.MANGA: _title_head,
    PageKind.READER: _reader_head,
    PageKind.RANKING: _ranking_head,
    PageKind.CALENDAR: _calendar_head,
}


async def resolve_head(found: RouteMatch | None, path: str, query: str = "") -> PageHead | None:
    if found is None:
        return None
    if found.kind.page.head is not None:
        settings = get_settings()
        return build.static_head(found.kind, site_names=settings.names, origin=settings.origin)
    return await CATALOGUE_HEADS[found.kind](found, path, query)
