"""The web app manifest: what a phone shows when the site is installed."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from manga_app.core.config import get_settings
from manga_app.ui.theme import BACKGROUND_COLOR, PRIMARY_COLOR


def manifest_document(site_names: tuple[str, ...]) -> dict:
    name = site_names[0]
    return {
        "name": name,
        "short_name": name[:12],
        "description": "日本語の生漫画をスマホで快適に読めるサイト",
        "lang": "ja",
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": PRIMARY_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["books", "entertainment"],
        "icons": [
            {"src": "/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": "/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": "/icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
            {"src": "/icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
        ],
    }


async def manifest(request: Request) -> JSONResponse:
    return JSONResponse(
        manifest_document(get_settings().names),
        media_type="application/manifest+json",
        headers={"Cache-Control": "public, max-age=3600"},
    )
