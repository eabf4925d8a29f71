"""Reflex's document head, as the site wants it (see the package's docstring).

Overrides: reflex.utils.misc.preload_color_theme (the color-mode script) and
reflex.compiler.utils.create_document_root (the stylesheet link and React
Router's ScrollRestoration replaced by the site's components).
Why: 3.5 ms of main thread before every first frame for a site with one
look; the reader's first frame waiting for a 130 KB stylesheet; React
Router's scroll script holding the parser.
Waits for: no upstream issue found; a Reflex setting to leave out the
color-mode script and to choose the document's stylesheet link.
"""

from __future__ import annotations

import functools

import reflex as rx
import reflex.compiler.utils
import reflex.utils.misc
from reflex_components_core.base.document import ScrollRestoration
from reflex_components_core.el.elements.metadata import Head, Link

from manga_app.platform.marks import MARK
from manga_app.ui.scroll_restoration import site_scroll_restoration
from manga_app.ui.site_styles import site_stylesheet


# ---- the document head ---------------------------------------------------
# Reflex 0.10 always puts a script first in every page's head
# (reflex.utils.misc.preload_color_theme, looked up each time the document
# root is compiled) that reads a saved color mode from localStorage before
# React starts. The site has one look (default_color_mode="light", no
# toggle, no stylesheet reads the class), yet a fresh page's first use of
# localStorage costs about 3.5 ms of main thread before the first frame, on
# every page. Reflex has no setting for it.


def _no_color_mode_script(default_color_mode: str = "system") -> rx.Component:
    """Stands in for reflex.utils.misc.preload_color_theme: renders nothing."""
    return rx.fragment()


def leave_out_color_mode_script() -> None:
    """Before the app is compiled (manga_app.manga_app calls it on import)."""
    reflex.utils.misc.preload_color_theme = _no_color_mode_script


# Reflex's document head links the site's stylesheet (every file of
# App.stylesheets in one, about 130 KB), and preloads it, on every page, and
# every page's first frame waits for it. The reader's first frame is one
# image and a few bars: it waited for the whole site's styles (reader LCP
# 1.6-1.9x a static page showing the same image). The link is the site's own
# component instead (ui/site_styles.py): the same link on every
# page but the reader's, which draws with its own small stylesheet (in its
# HTML) and links the site's once the app has started. Reflex has no setting
# for it. In the body, React Router's scroll restoration is the site's own
# component too (ui/scroll_restoration.py): on the reader its inline script
# runs once the page is parsed rather than before the first frame.

_GLOBAL_STYLES = "reflexGlobalStyles"


def _global_stylesheet(component: object) -> bool:
    return isinstance(component, Link) and str(getattr(component, "href", "")) == _GLOBAL_STYLES


def _own_stylesheet(create_document_root):
    @functools.wraps(create_document_root)
    def create(*args, **kwargs):
        root = create_document_root(*args, **kwargs)
        head = next((child for child in root.children if isinstance(child, Head)), None)
        links = [child for child in head.children if _global_stylesheet(child)] if head is not None else []
        stylesheet = next((link for link in links if str(link.rel) == '"stylesheet"'), None)
        if stylesheet is None:
            return root  # a document this does not know: left as built (the test fails)
        head.children = [
            site_stylesheet(stylesheet.href) if child is stylesheet else child
            for child in head.children
            if child is stylesheet or not any(child is link for link in links)
        ]
        for body in root.children:
            if body is not head:
                body.children = [
                    site_scroll_restoration() if isinstance(child, ScrollRestoration) else child for child in body.children
                ]
        return root

    setattr(create, MARK, True)
    return create


def own_stylesheet_link() -> None:
    """Before the app is compiled (manga_app.manga_app calls it on import)."""
    if not getattr(reflex.compiler.utils.create_document_root, MARK, False):
        reflex.compiler.utils.create_document_root = _own_stylesheet(reflex.compiler.utils.create_document_root)
