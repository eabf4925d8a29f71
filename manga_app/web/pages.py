"""Page requests: decide the status (200 or 404) and write the page's head
into the built shell, so crawlers get title, description, canonical, Open
Graph and JSON-LD before any JavaScript runs."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse

from manga_app import heads, reader_rules, routes, seo
from manga_app.page_heads import load_title, resolve_head
from manga_app.config import get_settings
from manga_app.genre_page import genre_page
from manga_app.routes import PageKind
from manga_app.search.params import parse_search_params
from manga_app.search_page import search_page
from manga_app.state.search_index import current_index
from manga_app.web import first_paint, shell
from manga_app.web.analytics import gtag_snippet

# Static routes are prerendered at build time; the others use the SPA shell.
_PRERENDERED = {PageKind.HOME, PageKind.GENRES, PageKind.SEARCH, PageKind.LIBRARY, PageKind.HISTORY}
# The head depends on the host (robots, analytics) and, on reader pages, on
# the reader's quality cookie (the preloaded first page).
_HTML_HEADERS = {"Cache-Control": "no-cache", "Vary": "Host, Cookie"}
log = logging.getLogger(__name__)


async def resolve(
    path: str, cookies: dict[str, str] | None = None
) -> tuple[int, seo.PageHead, routes.RouteMatch | None]:
    """Status and head for a page path. The visitor's cookies let the reader's
    head preload the first page in the quality the visitor reads in."""
    settings = get_settings()
    found = routes.match(path)
    head = await resolve_head(found, path, cookies=cookies)
    if head is None:
        return 404, heads.not_found_head(path, site_name=settings.site_name), None
    return 200, head, found


async def page(request: Request) -> HTMLResponse:
    settings = get_settings()
    status, head, found = await resolve(request.url.path, request.cookies)
    host = request.headers.get("host", "")
    robots = seo.robots_for(head, host=host, production_host=settings.production_host)
    head_html = seo.render_head_html(head, origin=settings.origin, robots=robots, site_name=settings.site_name)
    if seo.is_production_host(host, settings.production_host):
        head_html += gtag_snippet(settings.ga_measurement_id)
    root = shell.static_dir()
    if status == 404:
        file = root / shell.NOT_FOUND
    else:
        file = shell.shell_file(root, request.url.path, prerendered=found.kind in _PRERENDERED)
    reader = status == 200 and found.kind is PageKind.READER
    # The app starts after the page's first frame: title, genre and search
    # pages paint their content first, the reader its first page
    # (seo.first_paint_html), the other prerendered pages have theirs in the
    # HTML. Where nothing paints before the app (a dynamic page whose first
    # paint failed), it starts at once.
    painted = await _content_first_paint(found, request.url.query, root) if status == 200 and not reader else None
    if painted is None and file.name != shell.SPA_FALLBACK and not reader:
        painted = first_paint.paint_script()
    # The reader's first page brings its own styles (seo.first_paint_html):
    # the site's stylesheet loads after that frame.
    own_styles = reader and head.first_paint is not None
    # ...written as HTML when no stored setting of the browser changes it.
    in_html = own_styles and reader_rules.first_paint_in_html(head.first_paint)
    html = shell.render_shell(
        file,
        head_html + (painted or ""),
        body_html=first_paint.reader_html(head.first_paint) if in_html else "",
        after_paint=painted is not None or reader,
        styles_after_paint=own_styles,
    )
    return HTMLResponse(html, status_code=status, headers=_HTML_HEADERS)


async def _content_first_paint(found: routes.RouteMatch, query: str, root: Path) -> str | None:
    """The head script that paints a title, genre or search page's content
    before the app has loaded (web/first_paint.py); None for other pages."""
    if found.kind not in (PageKind.MANGA, PageKind.GENRE, PageKind.SEARCH):
        return None
    try:
        frame = first_paint.site_frame(root)
    except (OSError, ValueError):
        log.exception("Pages paint without their first paint: the build's site frame is unreadable")
        return None
    if found.kind is PageKind.MANGA:
        title = await asyncio.to_thread(load_title, found.params["slug"])
        if title is None:  # removed since the head was written: the app will say not found
            return None
        return first_paint.paint_script(first_paint.title_html(*title), frame=frame, ready=first_paint.TITLE_READY)
    snapshot, index = await current_index()
    now = datetime.now(UTC)
    if found.kind is PageKind.GENRE:  # known: the head said so
        page = genre_page(found.params["name"], query, index=index, now=now)
        return first_paint.paint_script(first_paint.genre_html(page), frame=frame, ready=first_paint.GRID_READY)
    params = parse_search_params(query, known_genres=frozenset(genre.name for genre in snapshot.genres))
    results = search_page(params, snapshot=snapshot, index=index, now=now)
    return first_paint.paint_script(first_paint.search_html(results, query=params.q), frame=frame, ready=first_paint.GRID_READY)
