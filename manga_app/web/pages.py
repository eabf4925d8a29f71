"""Page requests: decide the status (200 or 404) and write the page's head
into the built shell, so crawlers get title, description, canonical, Open
Graph and JSON-LD before any JavaScript runs."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse

from manga_app import heads, routes, seo
from manga_app.page_heads import resolve_head
from manga_app.config import get_settings
from manga_app.routes import PageKind
from manga_app.web import shell
from manga_app.web.analytics import gtag_snippet

# Static routes are prerendered at build time; the others use the SPA shell.
_PRERENDERED = {PageKind.HOME, PageKind.GENRES, PageKind.SEARCH, PageKind.LIBRARY, PageKind.HISTORY}
# The head depends on the host (robots, analytics) and, on reader pages, on
# the reader's quality cookie (the preloaded first page).
_HTML_HEADERS = {"Cache-Control": "no-cache", "Vary": "Host, Cookie"}


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
    html = shell.render_shell(file, head_html, image_first=reader)
    return HTMLResponse(html, status_code=status, headers=_HTML_HEADERS)
