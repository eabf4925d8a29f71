"""ライブラリ (`routes.ROUTE_TEMPLATES[PageKind.LIBRARY]`)."""

import reflex as rx

from manga_app.components.layout import site_layout
from manga_app.routes import PageKind

KIND = PageKind.LIBRARY
# Page-specific on_load events, run after the navigation stack and the head.
ON_LOAD: list = []


def view() -> rx.Component:
    return site_layout(rx.el.h1("ライブラリ", class_name="page-title"))
