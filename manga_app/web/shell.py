"""The built HTML shells of the frontend, and the rewrite of their <head>.

Reflex 0.10 prerenders static routes with the head of the initial state and
serves dynamic routes from a bare SPA shell; neither knows the page's real
title or the visitor's host. The server replaces the head tags instead."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from reflex.utils import prerequisites
from reflex_base import constants

# The built shell of routes Reflex did not prerender: what the reader is served in.
SPA_FALLBACK = "__spa-fallback.html"

# Head tags React prerendered from the initial state; the server writes the
# page's own instead.
_MANAGED_TAGS = re.compile(
    r"<title>.*?</title>"
    r"|<meta\b[^>]*\b(?:name=\"(?:description|robots|twitter:[^\"]*)\"|property=\"og:[^\"]*\")[^>]*>"
    r"|<link\b[^>]*\brel=\"canonical\"[^>]*>",
    re.DOTALL,
)
_HEAD_OPEN = re.compile(r"<head[^>]*>", re.IGNORECASE)
_BODY_OPEN = re.compile(r"<body\b[^>]*>", re.IGNORECASE)
_CHARSET = re.compile(r"<meta\b[^>]*\bcharset=[^>]*>", re.IGNORECASE)


def static_dir() -> Path:
    return (prerequisites.get_web_dir() / constants.Dirs.STATIC).resolve()


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


_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)"/?>')
# React Router's inline module that starts the app, and its static imports.
_APP_START = re.compile(r'(<script type="module"[^>]*>)(.*?)(</script>)', re.DOTALL)
_STATIC_IMPORT = re.compile(r'^import (?:\* as (\w+) from )?("[^"\\]+");[ \t]*$', re.MULTILINE)
_ANY_STATIC_IMPORT = re.compile(r"^\s*import\s*[^(\s]", re.MULTILINE)
# What the app waits for: the promise of the page's head script
# (assets/js/paint_gate.js, inlined by web/pages.py), else the frame after
# the one that shows the HTML (at once in a hidden tab, which paints none).
PAINT_GATE = (
    "window.__firstPaint || new Promise((go) => document.visibilityState === \"hidden\" ? go()"
    " : requestAnimationFrame(() => setTimeout(go, 0)))"
)


# Stylesheets the server held back until the first frame (_styles_after_paint).
_HELD = "data-after-paint"
_STYLESHEET = re.compile(r'<link\b(?=[^>]*\brel="stylesheet")[^>]*?(?=/?>)')
_STYLE_PRELOAD = re.compile(r'<link\b(?=[^>]*\brel="preload")(?=[^>]*\bas="style")[^>]*?(?=/?>)')
# Loads them, and waits until they apply (or fail): the app must not render
# unstyled. A browser that loaded one anyway has its `sheet` already; one
# that never says is given a few seconds (an unstyled app beats none).
_LOAD_HELD_STYLES = (
    f"await Promise.all([...document.querySelectorAll(\"link[{_HELD}]\")]"
    ".map((link) => new Promise((done) => { "
    "link.addEventListener(\"load\", done); link.addEventListener(\"error\", done); "
    "link.removeAttribute(\"disabled\"); if (link.sheet) done(); else setTimeout(done, 5000); })));\n"
)


def _gated_start(body: str, preloads: list[str], *, held_styles: bool = False) -> str | None:
    """The app's start module, waiting for PAINT_GATE before it loads
    anything: its static imports become awaited dynamic ones (same order),
    and the module preloads left out of the head are added at that moment;
    `held_styles`: then the held-back stylesheets load before anything runs.
    None when the module has an import this does not know how to rewrite."""

    def dynamic(found: re.Match) -> str:
        name, specifier = found.groups()
        return f"const {name} = await import({specifier});" if name else f"await import({specifier});"

    rewritten = _STATIC_IMPORT.sub(dynamic, body)
    if _ANY_STATIC_IMPORT.search(rewritten):
        return None
    hrefs = json.dumps(preloads)
    return (
        f"await ({PAINT_GATE});\n"
        f"for (const href of {hrefs}) {{ const link = document.createElement(\"link\"); "
        "link.rel = \"modulepreload\"; link.href = href; document.head.appendChild(link); }\n"
        + (_LOAD_HELD_STYLES if held_styles else "")
        + rewritten
    )


def _styles_after_paint(html: str) -> str:
    """The head's stylesheets neither block nor share the page's first frame:
    each is disabled (so not even fetched) and marked for the start module,
    their preloads match no media. For a page whose first frame needs only
    styles of its own (the reader's first page): its image gets the
    connection to itself, and the frame waits for neither the download nor
    the parsing of the site's stylesheet. React hydrates past the extra
    attributes (they are not content)."""
    head_end = html.find("</head>")
    head = _STYLESHEET.sub(lambda found: f'{found.group(0)} disabled="" {_HELD}=""', html[:head_end])
    head = _STYLE_PRELOAD.sub(lambda found: f'{found.group(0)} media="not all"', head)
    return head + html[head_end:]


def start_after_first_paint(html: str) -> str:
    """A server-rendered page whose app starts after its first frame (see
    _after_first_paint): the page is all there in the HTML, so the app's
    JavaScript need not share the connection and the main thread with it."""
    return _after_first_paint(html)


def _after_first_paint(html: str, *, styles: bool = False) -> str:
    """The app's JavaScript is neither fetched nor run before the page's
    first frame: a few hundred kilobytes of it would share the connection
    with the page's stylesheet and images, and running it holds the main
    thread while the first frame waits. On a phone on a slow network the
    page shows a second or more sooner; the app starts one frame later.
    `styles`: the site's stylesheets wait for that frame too
    (_styles_after_paint)."""
    preloads = _MODULE_PRELOAD.findall(html)
    start = _APP_START.search(html)
    gated = None if start is None else _gated_start(start.group(2), preloads, held_styles=styles)
    if gated is None:
        return html  # a start module this does not know: leave it as built
    html = html[: start.start(2)] + gated + html[start.end(2) :]
    html = _MODULE_PRELOAD.sub("", html)
    return _styles_after_paint(html) if styles else html


def render_shell(
    file: Path,
    head_html: str,
    *,
    body_html: str = "",
    after_paint: bool = False,
    styles_after_paint: bool = False,
) -> str:
    """The shell with `head_html` in its head and `body_html` first in its
    body (before anything React renders there, which it hydrates past as
    long as it is no tag React renders). `after_paint`: the app starts after
    the page's first frame (_after_first_paint); `styles_after_paint`: and
    the site's stylesheets load only then, for a first frame that brings
    its own styles."""
    before, head_rest, body = _shell_parts(file, file.stat().st_mtime_ns, after_paint, styles_after_paint)
    return before + head_html + head_rest + body_html + body


@lru_cache(maxsize=64)
def _shell_parts(file: Path, mtime_ns: int, after_paint: bool, styles: bool) -> tuple[str, str, str]:
    """The stripped shell with the start-module and stylesheet rewrites done,
    once per build rather than per request, cut where the page's head tags
    and body content go. The rewrites apply to the built part after the
    head's cut (head rest and body), never to the page's own tags."""
    before, after = _stripped(file, mtime_ns)
    if after_paint:
        after = _after_first_paint(after, styles=styles)
    # No <body> tag (a hand-written page): the parser opens the body for what follows the head.
    body = _BODY_OPEN.search(after)
    cut = body.end() if body else len(after)
    return before, after[:cut], after[cut:]
