"""The page Reflex builds, started after its first frame (see the package's docstring).

Overrides: the HTML of React Router's build (its module preloads and the
inline module that starts the app), rewritten after rendering.
Why: the app's scripts, preloaded and started at once, shared a phone's
connection and main thread with a page already complete in the HTML
(Lighthouse mobile 81-89 instead of 97-99).
Waits for: no upstream issue found; a React Router (8.4) entry option to
defer hydration, or a Reflex one to start the app after the first paint.
"""

from __future__ import annotations

import json
import re


# ---- the built page ------------------------------------------------------
# React Router's build puts the app's module preloads and its start module
# in every page; on a phone on a slow network those few hundred kilobytes
# would share the connection and the main thread with a page that is
# already all there in the HTML. Without this, Lighthouse mobile fell from
# 97-99 to 81-89 (LCP 2.8-3.1 s).

_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)"/?>')
# Inline modules (React Router's that starts the app is the one naming the
# route modules; the reader's scroll restoration is another), and imports.
_MODULE = re.compile(r'(<script type="module"[^>]*>)(.*?)(</script>)', re.DOTALL)
_APP_START_MARK = "window.__reactRouterRouteModules"
_STATIC_IMPORT = re.compile(r'^import (?:\* as (\w+) from )?("[^"\\]+");[ \t]*$', re.MULTILINE)
_ANY_STATIC_IMPORT = re.compile(r"^\s*import\s*[^(\s]", re.MULTILINE)
# What the app waits for: the page's high-priority images (the reader's
# first page) loaded, so its scripts do not share the connection and the
# main thread with them (not image.decode(): the page's own paint decodes
# them again), then the frame that shows them on screen. Where the browser
# reports the page's largest paint and it is one of them, that report: it
# comes once the frame is presented, and the image's decoding, drawing and
# presenting come after the frame's main-thread work (the app's fetching
# and compiling beside them made the reader's LCP 1.2x slower). Else, or
# after LARGEST_PAINT_WAIT_MS, the frame after the one they arrived in. At
# once in a hidden tab, which paints none.
LARGEST_PAINT_WAIT_MS = 250
PAINT_GATE = (
    'new Promise((go) => { if (document.visibilityState === "hidden") return go();'
    ' const images = [...document.querySelectorAll("img[fetchpriority=high]")];'
    " Promise.all(images.map((image) => image.complete || new Promise((done) => {"
    ' image.addEventListener("load", done); image.addEventListener("error", done); }))).then(() => {'
    " const reported = images.length > 0"
    ' && (PerformanceObserver.supportedEntryTypes || []).includes("largest-contentful-paint");'
    f" requestAnimationFrame(() => setTimeout(go, reported ? {LARGEST_PAINT_WAIT_MS} : 0));"
    " if (reported) new PerformanceObserver((list, observer) => {"
    " if (list.getEntries().some((entry) => images.includes(entry.element))) { observer.disconnect(); go(); } })"
    '.observe({ type: "largest-contentful-paint", buffered: true }); }); })'
)


def _gated_start(body: str, preloads: list[str]) -> str | None:
    """The app's start module, waiting for PAINT_GATE before it loads
    anything: its static imports become awaited dynamic ones (same order),
    and the module preloads left out of the head are added at that moment.
    None when the module has an import this does not know how to rewrite."""

    def dynamic(found: re.Match) -> str:
        alias, source = found.group(1), found.group(2)
        return f"const {alias} = await import({source});" if alias else f"await import({source});"

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
    start = next((found for found in _MODULE.finditer(html) if _APP_START_MARK in found.group(2)), None)
    gated = None if start is None else _gated_start(start.group(2), preloads)
    if gated is None:
        return html
    html = html[: start.start(2)] + gated + html[start.end(2) :]
    return _MODULE_PRELOAD.sub("", html)
