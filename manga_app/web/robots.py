"""robots.txt: open on the production host, closed everywhere else."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse

from manga_app.config import get_settings
from manga_app.seo import is_production_host

# Personal pages are never worth crawling.
_PRIVATE_PATHS = ("/library", "/history")


def robots_text(*, production: bool, origin: str) -> str:
    if not production:
        return "User-agent: *\nDisallow: /\n"
    lines = ["User-agent: *", "Allow: /", *(f"Disallow: {path}" for path in _PRIVATE_PATHS)]
    lines += ["", f"Sitemap: {origin}/sitemap.xml", ""]
    return "\n".join(lines)


async def robots(request: Request) -> PlainTextResponse:
    settings = get_settings()
    production = is_production_host(request.headers.get("host", ""), settings.production_host)
    return PlainTextResponse(robots_text(production=production, origin=settings.origin), headers={"Vary": "Host"})
