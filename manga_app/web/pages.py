"""Page requests: the first HTML of every page and its status (200, or 404
for a path that names no page).

Every page is rendered by the app's own components with the states its
on_load handlers produce (manga_app/ssr), and the browser hydrates it in
place. Most pages are the same for every visitor (the server knows nothing
of theirs: per-visitor parts arrive with the app), so they are cached per
catalogue version and host; the reader is drawn with the reader's own
cookies (its layout, the page it left), and cached per their values."""

from __future__ import annotations

from functools import lru_cache

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from manga_app.core import routes
from manga_app.heads import seo
from manga_app.accounts.settings import get_firebase_config
from manga_app.read_models.discovery import held_board
from manga_app.read_models.held import held_catalogue
from manga_app.core.config import get_settings
from manga_app.core.routes import PageKind
from manga_app.ssr.pages import Page, render_page
from manga_app.ssr import csp
from manga_app.web.encoding import accepts_gzip, gzipped

_HTML_HEADERS = {"Cache-Control": "no-cache", "Vary": "Host, Accept-Encoding"}
_READER_HEADERS = {"Cache-Control": "no-cache", "Vary": "Host, Cookie, Accept-Encoding"}
_PRIVATE_HEADERS = {**_HTML_HEADERS, "Cache-Control": "no-store"}


def cache_headers(kind: PageKind | None) -> dict[str, str]:
    """Every page is revalidated; a visitor's own pages are never stored."""
    if kind is PageKind.READER:
        return _READER_HEADERS
    return _PRIVATE_HEADERS if kind is not None and kind.page.private else _HTML_HEADERS


async def page(request: Request) -> Response:
    settings = get_settings()
    host = request.headers.get("host", "")
    production = seo.is_production_host(host, settings.production_host)
    snapshot = await held_catalogue().snapshot()
    found = routes.match(request.url.path)
    version = snapshot.version
    if found is not None and found.kind in (PageKind.HOME, PageKind.RANKING, PageKind.CALENDAR):
        # They show the board, recomputed between publishes (and first 集計中).
        version += f"/board-{held_board().generation}"
    result = await render_page(
        request.url.path,
        request.url.query,
        host=host,
        scheme=request.url.scheme,
        production=production,
        version=version,
        cookies=request.cookies,
    )
    headers = {
        **cache_headers(found.kind if found is not None else None),
        "Content-Security-Policy": _policy(result.script_hashes, production=production),
    }
    if accepts_gzip(request.headers.get("accept-encoding", "")):
        # Compressed once per cached page: compressing on every request took
        # two thirds of a worker serving cached pages.
        headers["Content-Encoding"] = "gzip"
        return HTMLResponse(_compressed(result), status_code=result.status, headers=headers)
    return HTMLResponse(result.html, status_code=result.status, headers=headers)


@lru_cache(maxsize=2048)
def _compressed(result: Page) -> bytes:
    return gzipped(result.html)


@lru_cache(maxsize=4096)
def _policy(script_hashes: tuple[str, ...], *, production: bool) -> str:
    settings, firebase = get_settings(), get_firebase_config()
    return csp.page_policy(
        script_hashes,
        analytics=production and bool(settings.ga_measurement_id),
        media_base_url=settings.media_base_url,
        auth_domain="" if firebase.emulated else firebase.auth_domain,
        emulator_port=firebase.emulator_host.rsplit(":", 1)[-1] if firebase.emulated else "",
    )
