"""robots.txt: open on the production host, closed everywhere else. Both
name the sitemap at SITE_ORIGIN (the canonical site), so a crawler that
lands on another host still finds the real site's URLs."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse

from manga_app.core.config import get_settings
from manga_app.heads.seo import is_production_host

# Personal pages are never worth crawling.
_PRIVATE_PATHS = ("/library", "/history")


def robots_text(*, production: bool, origin: str) -> str:
    if production:
        lines = ["User-agent: *", "Allow: /", *(f"Disallow: {path}" for path in _PRIVATE_PATHS)]
    else:
        lines = ["User-agent: *", "Disallow: /"]
    lines += ["", f"Sitemap: {origin}/sitemap.xml", ""]
    return "\n".join(lines)


async def robots(request: Request) -> PlainTextResponse:
    settings = get_settings()
    production = is_production_host(request.headers.get("host", ""), settings.production_host)
    return PlainTextResponse(robots_text(production=production, origin=settings.origin), headers={"Vary": "Host"})
