"""Page requests: the first HTML of every page and its status (200, or 404
for a path that names no page).

Site pages are rendered by the app's own components with the states their
on_load handlers produce (manga_app/ssr), and the browser hydrates them in
place. They are the same for every visitor (the server knows nothing of
theirs: per-visitor parts arrive with the app), so they are cached per
catalogue version and host.

The reader still answers with the built shell, its head, and its first page
drawn by the server's own markup (reader_first_paint.html) or head script;
moving it onto the renderer is the part of "one markup source" still open."""

from __future__ import annotations

from functools import lru_cache

from starlette.requests import Request
from starlette.responses import HTMLResponse

from manga_app import reader_rules, routes, seo
from manga_app.catalogue.held import held_catalogue
from manga_app.auth.settings import get_firebase_config
from manga_app.config import get_settings
from manga_app.page_heads import resolve_head
from manga_app.routes import PageKind
from manga_app.ssr import pages as rendered_pages
from manga_app.web import csp, first_paint, shell
from manga_app.web.analytics import gtag_snippet

_HTML_HEADERS = {"Cache-Control": "no-cache", "Vary": "Host"}
# The reader's head depends on the reader's quality cookie (the preloaded first page).
_READER_HEADERS = {"Cache-Control": "no-cache", "Vary": "Host, Cookie"}


async def page(request: Request) -> HTMLResponse:
    settings = get_settings()
    host = request.headers.get("host", "")
    production = seo.is_production_host(host, settings.production_host)
    found = routes.match(request.url.path)
    if found is not None and found.kind is PageKind.READER:
        head = await resolve_head(found, request.url.path, cookies=request.cookies)
        if head is not None:  # else: the site's 404 page, rendered like every site page
            return _reader(request, head, host=host, production=production)
    snapshot = await held_catalogue().snapshot()
    result = await rendered_pages.render_page(
        request.url.path,
        request.url.query,
        host=host,
        scheme=request.url.scheme,
        production=production,
        version=snapshot.version,
    )
    headers = {**_HTML_HEADERS, "Content-Security-Policy": _policy(result.script_hashes, production=production)}
    return HTMLResponse(result.html, status_code=result.status, headers=headers)


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


def _reader(request: Request, head: seo.PageHead, *, host: str, production: bool) -> HTMLResponse:
    settings = get_settings()
    path = request.url.path
    robots = seo.robots_for(head, host=host, production_host=settings.production_host)
    head_html = seo.render_head_html(head, origin=settings.origin, robots=robots, site_name=settings.site_name)
    # The server's head tags are for crawlers; they leave before React hydrates the head.
    head_html += seo.self_removing_script(seo.REMOVE_SERVER_HEAD_JS)
    if production:
        head_html += gtag_snippet(settings.ga_measurement_id)
    root = shell.static_dir()
    # The reader's first page brings its own styles (seo.first_paint_html):
    # the site's stylesheet loads after that frame...
    own_styles = head.first_paint is not None
    # ...written as HTML when no stored setting of the browser changes it.
    in_html = own_styles and reader_rules.first_paint_in_html(head.first_paint)
    html = shell.render_shell(
        root / shell.SPA_FALLBACK,
        head_html,
        body_html=first_paint.reader_html(head.first_paint) if in_html else "",
        after_paint=True,
        styles_after_paint=own_styles,
    )
    headers = {**_READER_HEADERS, "Content-Security-Policy": _policy(csp.inline_script_hashes(html), production=production)}
    return HTMLResponse(html, status_code=200, headers=headers)
