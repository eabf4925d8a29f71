"""The built HTML shells of the frontend, and the rewrite of their <head>.

Reflex 0.10 prerenders static routes with the head of the initial state and
serves dynamic routes from a bare SPA shell; neither knows the page's real
title or the visitor's host. The server replaces the head tags instead."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from reflex.utils import prerequisites
from reflex_base import constants

SPA_FALLBACK = "__spa-fallback.html"
NOT_FOUND = "404.html"

# Head tags React prerendered from the initial state; the server writes the
# page's own instead.
_MANAGED_TAGS = re.compile(
    r"<title>.*?</title>"
    r"|<meta\b[^>]*\b(?:name=\"(?:description|robots|twitter:[^\"]*)\"|property=\"og:[^\"]*\")[^>]*>"
    r"|<link\b[^>]*\brel=\"canonical\"[^>]*>",
    re.DOTALL,
)
_HEAD_OPEN = re.compile(r"<head[^>]*>", re.IGNORECASE)
_CHARSET = re.compile(r"<meta\b[^>]*\bcharset=[^>]*>", re.IGNORECASE)


def static_dir() -> Path:
    return (prerequisites.get_web_dir() / constants.Dirs.STATIC).resolve()


def shell_file(root: Path, path: str, *, prerendered: bool) -> Path:
    """The built file for a page path: its prerendered HTML, else the SPA shell."""
    if prerendered:
        name = path.strip("/")
        for candidate in (root / name / "index.html", root / f"{name}.html"):
            if name and candidate.is_file():
                return candidate
        if not name:
            return root / "index.html"
    return root / SPA_FALLBACK


@lru_cache(maxsize=64)
def _stripped(file: Path, mtime_ns: int) -> tuple[str, str]:
    """The shell split around the point where the head tags go (cached per build)."""
    html = _MANAGED_TAGS.sub("", file.read_text(encoding="utf-8"))
    opened = _HEAD_OPEN.search(html)
    if opened is None:
        raise ValueError(f"{file} has no <head>")
    # After <meta charset> so the charset stays within the first bytes.
    charset = _CHARSET.search(html, opened.end())
    cut = charset.end() if charset else opened.end()
    return html[:cut], html[cut:]


_MODULE_PRELOADS = re.compile(r'<link rel="modulepreload"[^>]*>')


def render_shell(file: Path, head_html: str, *, image_first: bool = False) -> str:
    """The shell with `head_html` in its head. `image_first`: without the
    app's module preloads, so the page's image (the reader's first page)
    downloads and paints before the JavaScript is fetched and run."""
    before, after = _stripped(file, file.stat().st_mtime_ns)
    html = before + head_html + after
    return _MODULE_PRELOADS.sub("", html) if image_first else html
