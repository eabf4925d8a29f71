"""The head of whatever page lives at a path, looked up in the catalogue
(None: no page lives there, a 404). Used by HeadState."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

from urllib.parse import parse_qsl

from manga_app.core import discovery as core_discovery
from manga_app.core import gojuon
from manga_app.search.held_index import current_index
from manga_app.search.paging import PER_PAGE, clamp_page, page_count, parse_page
from manga_app.heads import build
from manga_app.read_models import discovery
from manga_app.read_models.discovery import held_board
from manga_app.read_models.held import held_catalogue
from manga_app.search import idsets
from manga_app.search.held_index import current_index
from manga_app.read_models.title_cache import load_chapter, load_title
from manga_app.core.config import get_settings
from manga_app.core import routes
from manga_app.core.routes import PageKind, RouteMatch
from manga_app.heads.seo import PageHead


async def _genre_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    snapshot = await held_catalogue().snapshot()
    genre = next((genre for genre in snapshot.genres if genre.name == found.params["name"]), None)
    return None if genre is None else build.genre_head(genre.name, genre.total, site_name=settings.site_name, origin=settings.origin)


async def _named_list_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    """An author's or a tag's page; None (a 404) when no listed series has that name."""
    settings = get_settings()
    _, index = await current_index()
    name = found.params["name"]
    members = (index.people if found.kind is PageKind.AUTHOR else index.tags).get(name)
    if members is None:
        return None
    total = idsets.count(members)
    return build.named_list_head(found.kind, name, total, site_name=settings.site_name, origin=settings.origin)


async def _title_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    title = await asyncio.to_thread(load_title, found.params["slug"])
    return None if title is None else build.title_head(*title, site_name=settings.site_name, origin=settings.origin)


async def _reader_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    context = await asyncio.to_thread(load_chapter, found.params)
    return None if context is None else build.reader_head(context, path, site_name=settings.site_name, origin=settings.origin)


async def _kana_row_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    row = found.params["row"]
    if row not in gojuon.SITE_ROWS:
        return None
    settings = get_settings()
    _, index = await current_index()
    total = index.row_counts()[row]
    page = clamp_page(parse_page(dict(parse_qsl(query[:2000])).get("page")), page_count(total, PER_PAGE))
    return build.kana_row_head(row, total, page, site_name=settings.site_name, origin=settings.origin)


async def _ranking_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    wanted = core_discovery.parse_ranking_query(query)
    board = await held_board().board()
    if wanted.genre and not discovery.known_genre(board, wanted.genre, await held_catalogue().snapshot()):
        return None
    listing = discovery.ranking_names(board, wanted.period, wanted.genre, wanted.page, core_discovery.RANKING_PER_PAGE)
    entries = [(ranked.rank, title, routes.manga_url(slug)) for (title, slug), ranked in listing.items]
    return build.ranking_head(wanted.period, wanted.genre, listing.page, entries, site_name=settings.site_name,
                              origin=settings.origin)


async def _calendar_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    settings = get_settings()
    wanted = core_discovery.parse_calendar_query(query, now=datetime.now(UTC))
    return build.calendar_head(wanted.day, wanted.chosen, wanted.page, site_name=settings.site_name, origin=settings.origin)


async def _console_head(found: RouteMatch, path: str, query: str) -> PageHead | None:
    """The console is a 404 to whoever the server renders for (it never knows
    the visitor): the site's ordinary not-found page. The operator's browser
    shows the console once their verified token says so (OperatorState)."""
    return None


# The heads of the pages that declare none (core/pages.py): built from the
# catalogue row their path names, None when there is no such row (a 404).
CATALOGUE_HEADS: dict[PageKind, Callable[[RouteMatch, str, str], Awaitable[PageHead | None]]] = {
    PageKind.GENRE: _genre_head,
    PageKind.AUTHOR: _named_list_head,
    PageKind.TAG: _named_list_head,
    PageKind.MANGA: _title_head,
    PageKind.READER: _reader_head,
    PageKind.KANA_ROW: _kana_row_head,
    PageKind.RANKING: _ranking_head,
    PageKind.CALENDAR: _calendar_head,
    **{kind: _console_head for kind in PageKind if kind.page.console},
}


async def resolve_head(found: RouteMatch | None, path: str, query: str = "") -> PageHead | None:
    if found is None:
        return None
    if found.kind.page.head is not None:
        settings = get_settings()
        return build.static_head(found.kind, site_names=settings.names, origin=settings.origin)
    return await CATALOGUE_HEADS[found.kind](found, path, query)


async def series_near(found: RouteMatch | None) -> tuple[str, str]:
    """For a path that names no page: the title and page of the series it
    names (an unknown chapter of a known series), or two empty strings."""
    slug = found.params.get("slug", "") if found else ""
    title = await asyncio.to_thread(load_title, slug) if slug else None
    return (title[0].title, routes.manga_url(title[0].slug)) if title else ("", "")
