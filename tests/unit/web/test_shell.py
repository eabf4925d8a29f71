"""manga_app.web.shell: rendered pages start the app after their first frame.
(tests/e2e/test_hydration.py checks that the real build's start module is
rewritten, so a Reflex upgrade that changes it fails there.)"""

from __future__ import annotations

import re

from manga_app.web import shell

CHARSET = '<meta charSet="utf-8"/>'
# React Router's start module, as the build writes it.
APP_START = (
    '<script type="module" async="">import "/assets/manifest-1.js";\n'
    'import * as route0 from "/assets/root-2.js";\n  \n'
    '  window.__reactRouterRouteModules = {"root":route0};\n\n'
    'import("/assets/entry.client-3.js");</script>'
)
STYLES = '<link href="/assets/styles-4.css" rel="stylesheet" type="text/css"/>'


def _page(start: str = APP_START) -> str:
    return (
        f'<!DOCTYPE html><html><head>{CHARSET}<link rel="modulepreload" href="/assets/root-2.js"/>{STYLES}</head>'
        f"<body><h1>page</h1>{start}</body></html>"
    )


def _head(html: str) -> str:
    return html[: html.index("</head>")]


def test_the_app_starts_after_the_gate_with_the_same_imports_in_the_same_order():
    html = shell.start_after_first_paint(_page())
    assert "modulepreload" not in _head(html)
    module = re.search(r"<script[^>]*>(.*?)</script>", html, re.DOTALL).group(1)
    lines = [line.strip() for line in module.splitlines() if line.strip()]
    assert lines[0] == f"await ({shell.PAINT_GATE});"
    # The module preloads left out of the head are asked for at that moment.
    assert '["/assets/root-2.js"]' in lines[1] and 'link.rel = "modulepreload"' in lines[1]
    assert lines[2:] == [
        'await import("/assets/manifest-1.js");',
        'const route0 = await import("/assets/root-2.js");',
        'window.__reactRouterRouteModules = {"root":route0};',
        'import("/assets/entry.client-3.js");',
    ]


def test_the_page_and_its_stylesheet_are_left_as_they_are():
    html = shell.start_after_first_paint(_page())
    assert STYLES in _head(html) and "<body><h1>page</h1><script" in html


def test_an_app_start_it_cannot_rewrite_is_left_as_built_with_its_preloads():
    odd = '<script type="module">import { a } from "/assets/a.js";\na();</script>'
    assert shell.start_after_first_paint(_page(odd)) == _page(odd)
