"""The service worker at /sw.js (scope `/`): assets/js/offline/sw.js with
the build's files to keep (`SHELL`) and a `VERSION` naming them.

A new build lists other files, so the worker's bytes change and browsers
install it as an update (the worker itself keeps saved chapters across it).
The worker is fetched with `Cache-Control: no-cache` so an update is seen on
the next visit, and carries its own Content-Security-Policy: a worker's
requests follow the policy it was delivered with, not the page's."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from manga_app.core import pages
from manga_app.core.config import get_settings
from manga_app.ssr import shell

TEMPLATE = Path(__file__).resolve().parents[2] / "assets" / "js" / "offline" / "sw.js"
# The built files every page may load; pages themselves are kept by the worker.
_SHELL_DIRS = ("assets", "css")
_SHELL_FILES = ("/favicon.ico", "/manifest.json", "/icons/icon-192.png", "/icons/icon.svg")
_SHELL_SUFFIXES = (".js", ".css")


def shell_files(static_root: Path) -> list[str]:
    """The URL paths of the build's scripts and styles (not their .gz twins), sorted."""
    found = [
        "/" + path.relative_to(static_root).as_posix()
        for folder in _SHELL_DIRS
        if (static_root / folder).is_dir()
        for path in (static_root / folder).rglob("*")
        if path.is_file() and path.suffix in _SHELL_SUFFIXES
    ]
    return sorted(found) + list(_SHELL_FILES)


def media_origin(media_base_url: str) -> str:
    """The origin of MEDIA_BASE_URL when it is another site's (a CDN), else ""."""
    parts = urlsplit(media_base_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


def worker_script(template: str, files: list[str], media: str = "") -> str:
    # The site pages it keeps are the pages declared kept offline (core/pages.py).
    kept = list(pages.offline_paths())
    version = hashlib.sha256(json.dumps([template, files, media, kept]).encode("utf-8")).hexdigest()[:16]
    constants = {"VERSION": version, "SHELL": files, "MEDIA_ORIGIN": media, "SITE_PAGES": kept}
    return "".join(f"const {name} = {json.dumps(value)};\n" for name, value in constants.items()) + template


def worker_policy(media: str) -> str:
    """The worker fetches the site's own files, and media from a CDN's origin."""
    return f"default-src 'none'; connect-src 'self'{' ' + media if media else ''}; frame-ancestors 'none'"


@lru_cache(maxsize=4)
def _script(static_root: Path, built: tuple[int, ...], media: str) -> str:
    return worker_script(TEMPLATE.read_text(encoding="utf-8"), shell_files(static_root), media)


async def service_worker(request: Request) -> Response:
    root = shell.static_dir()
    # A build adds and removes files there, which changes the folders' times.
    built = tuple(folder.stat().st_mtime_ns if folder.is_dir() else 0 for folder in (root / name for name in _SHELL_DIRS))
    media = media_origin(get_settings().media_base_url)
    return Response(
        _script(root, built, media) if request.method != "HEAD" else "",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Content-Security-Policy": worker_policy(media)},
    )
