"""The HTTP layer Reflex mounts in front of itself (`api_transformer`).

Every URL the site answers itself is declared here; anything else (built
assets, the websocket, health checks) goes on to Reflex."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Mount, Route, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response

from manga_app.core import pages as core_pages
from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app import platform
from manga_app.web import bounded_logs
from manga_app.ssr import shell
from manga_app.web import catalogue_files, feeds, install, opds, pages, robots, service_worker, sitemap, slashes, suggest
from manga_app.web.security_headers import SecurityHeaders
from manga_app.uploads.tus_app import is_tus_path, tus_endpoint

# Reflex's own endpoints and build output: never pages.
_RESERVED_PREFIXES = ("/_", "/assets/", "/ping", "/icons/", "/css/", "/js/", "/media/", "/manifests/")
MEDIA_PREFIX = "/media"
# Reflex endpoints the site does not use, and /assets/ beyond the built
# files: a 404, never the app shell (which answers 200 to anything).
_INTERNAL_PATHS = ("/_upload", "/_all_routes")
_ASSETS_PREFIX = "/assets/"


def is_page_path(path: str, *, static_root: Path | None = None) -> bool:
    """Would a visitor expect a page (or a 404 page) at this path?

    A path with a dot in its last segment names a built file (favicon.ico)
    only when that file exists; otherwise it is answered by the 404 page
    here, never by Reflex's app shell with status 200 (a soft 404).
    """
    if path.startswith(_RESERVED_PREFIXES):
        return False
    if len(path) > routes.MAX_PATH_LENGTH or routes.match(path) is not None:
        return True
    if "." not in path.rsplit("/", 1)[-1]:
        return True
    return not _is_built_file(static_root or shell.static_dir(), path)


def is_internal_path(path: str, *, static_root: Path | None = None) -> bool:
    """Reflex's internal endpoints, or a missing built asset."""
    if any(path == internal or path.startswith(internal + "/") for internal in _INTERNAL_PATHS):
        return True
    return path.startswith(_ASSETS_PREFIX) and not _is_built_file(static_root or shell.static_dir(), path)


def _is_built_file(root: Path, path: str) -> bool:
    root = root.resolve()
    try:
        candidate = (root / unquote(path).lstrip("/")).resolve()
        return candidate.is_relative_to(root) and candidate.is_file()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def _moved(location: str):
    async def endpoint(request: Request) -> Response:
        query = request.url.query
        return RedirectResponse(location + (f"?{query}" if query else ""), status_code=308)

    return endpoint


NOT_FOUND = PlainTextResponse("見つかりませんでした", status_code=404)


class SiteHttpLayer:
    """Our routes first; page paths get their shell; the rest goes to Reflex."""

    def __init__(self, reflex_app: ASGIApp) -> None:
        self.reflex_app = reflex_app
        self.router = Router(
            routes=[
                Route("/manifest.json", install.manifest, methods=["GET", "HEAD"]),
                Route("/sw.js", service_worker.service_worker, methods=["GET", "HEAD"]),
                Route("/robots.txt", robots.robots, methods=["GET", "HEAD"]),
                Route("/sitemap.xml", sitemap.sitemap, methods=["GET", "HEAD"]),
                Route("/genres.json", catalogue_files.genres_json, methods=["GET", "HEAD"]),
                Route(routes.SUGGEST, suggest.suggest, methods=["GET", "HEAD"]),
                Route("/mangas_{page}.json", catalogue_files.mangas_json, methods=["GET", "HEAD"]),
                Route("/manifests/{slug}/{number}.json", catalogue_files.manifest_json, methods=["GET", "HEAD"]),
                *(Route(path, _moved(location), methods=["GET", "HEAD"]) for path, location in core_pages.MOVED.items()),
                *opds.feed_routes(),
                *feeds.feed_routes(),
            ],
            default=self._pages_or_reflex,
        )
        self.app = GZipMiddleware(self.router, minimum_size=1024)
        # Images are already compressed, and gzip would break range requests.
        self.media = Mount(MEDIA_PREFIX, app=catalogue_files.media_app())
        self.opds_files = Router(routes=opds.file_routes())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.reflex_app(scope, receive, send)
        elif await slashes.redirect_collapsed(scope, receive, send):
            return
        elif scope["path"].startswith(MEDIA_PREFIX + "/"):
            await self.media(scope, receive, send)
        elif opds.is_file_path(scope["path"]):
            await self.opds_files(scope, receive, send)
        elif is_tus_path(scope["path"]) and scope["method"] != "GET":
            # The console's uploads (operators only; uploads/tus_app.py). A GET is a page path: the 404 page.
            await tus_endpoint(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _pages_or_reflex(self, scope: Scope, receive: Receive, send: Send) -> None:
        if is_internal_path(scope["path"]):
            await NOT_FOUND(scope, receive, send)
            return
        if scope["method"] in ("GET", "HEAD") and is_page_path(scope["path"]):
            await self._page_route(scope, receive, send)
            return
        await self.reflex_app(scope, receive, send)

    _page_route = Route("/{path:path}", pages.page, methods=["GET", "HEAD"])


def site_http_layer(reflex_app: ASGIApp) -> ASGIApp:
    bounded_logs.install()  # before the framework logs anything a client sent
    platform.install()
    return SecurityHeaders(SiteHttpLayer(reflex_app), production_host=get_settings().production_host)
