"""The built app's files, and the one rewrite of Reflex's build output the
server still makes: rendered pages start the app after their first frame.

Reflex's React Router build puts the app's module preloads and its start
module in every page; on a phone on a slow network those few hundred
kilobytes would share the connection and the main thread with a page that
is already all there in the HTML. tests/unit/web/test_shell.py fails when
a Reflex upgrade changes the start module so that this no longer applies."""

from __future__ import annotations

import json
import re
from pathlib import Path

from reflex.utils import prerequisites
from reflex_base import constants

# The built shell of routes Reflex did not prerender: what a page is served
# in when the server cannot render it.
SPA_FALLBACK = "__spa-fallback.html"


def static_dir() -> Path:
    return (prerequisites.get_web_dir() / constants.Dirs.STATIC).resolve()


_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)"/?>')
# React Router's inline module that starts the app, and its static imports.
_APP_START = re.compile(r'(<script type="module"[^>]*>)(.*?)(</script>)', re.DOTALL)
_STATIC_IMPORT = re.compile(r'^import (?:\* as (\w+) from )?("[^"\\]+");[ \t]*$', re.MULTILINE)
_ANY_STATIC_IMPORT = re.compile(r"^\s*import\s*[^(\s]", re.MULTILINE)
# What the app waits for: the frame after the one that shows the HTML (at
# once in a hidden tab, which paints none).
PAINT_GATE = (
    "new Promise((go) => document.visibilityState === \"hidden\" ? go()"
    " : requestAnimationFrame(() => setTimeout(go, 0)))"
)


def _gated_start(body: str, preloads: list[str]) -> str | None:
    """The app's start module, waiting for PAINT_GATE before it loads
    anything: its static imports become awaited dynamic ones (same order),
    and the module preloads left out of the head are added at that moment.
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
        + rewritten
    )


def start_after_first_paint(html: str) -> str:
    """The page with the app's JavaScript neither fetched nor run before its
    first frame: the page shows sooner on a slow phone; the app starts one
    frame later. A start module this does not know is left as built (and
    the test named above fails)."""
    preloads = _MODULE_PRELOAD.findall(html)
    start = _APP_START.search(html)
    gated = None if start is None else _gated_start(start.group(2), preloads)
    if gated is None:
        return html
    html = html[: start.start(2)] + gated + html[start.end(2) :]
    return _MODULE_PRELOAD.sub("", html)
