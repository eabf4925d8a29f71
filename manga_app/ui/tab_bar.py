"""The phones' bottom tab bar: the pages that declare a `tab` (core/pages.py),
in declaration order, the current one marked. Part of the site layout only,
so it never covers a reader page; hidden from 768 px up (the header and
footer are in reach there)."""

from __future__ import annotations

import reflex as rx

from manga_app.core import pages
from manga_app.ui.link import link
from manga_app.ui.navigation_state import NavigationState

# 24 x 24 outline icons (stroke: currentColor); a tab whose icon is not
# drawn here gets the dot.
ICONS = {
    "home": "M3 11.5 12 4l9 7.5M5.5 9.5V20h5v-6h3v6h5V9.5",
    "ranking": "M4 20V13h4v7M10 20V8h4v12M16 20v-9h4v9M3 20h18",
    "search": "M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13ZM15.5 15.5 20 20",
    "library": "M5 4h5v16H5zM12 4h3v16h-3zM16.5 5.2l2.9-.8 3.1 15-2.9.8z",
    "history": "M12 7v5l3 2M3.5 12a8.5 8.5 0 1 0 2.5-6M3 4v4h4",
    "bell": "M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 20a2 2 0 0 0 4 0",
}
_DOT = "M12 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4Z"


def _icon(name: str) -> rx.Component:
    return rx.el.svg(
        rx.el.svg.path(d=ICONS.get(name, _DOT)),
        view_box="0 0 24 24",
        class_name="tab-icon",
        aria_hidden="true",
        custom_attrs={"focusable": "false"},
    )


def _tab(label: str, icon: str, path: str) -> rx.Component:
    current = NavigationState.current_path == path
    return rx.el.li(
        link(
            _icon(icon),
            rx.el.span(label, class_name="tab-label"),
            href=path,
            class_name=rx.cond(current, "tab-bar-link is-current", "tab-bar-link"),
            aria_current=rx.cond(current, "page", "false"),
        ),
        class_name="tab-bar-item",
    )


def tab_bar() -> rx.Component:
    return rx.el.nav(
        rx.el.ul(*(_tab(*entry) for entry in pages.tab_links()), class_name="tab-bar-list"),
        class_name="tab-bar",
        aria_label="タブメニュー",
    )
