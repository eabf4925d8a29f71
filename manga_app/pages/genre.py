"""ジャンル (`routes.ROUTE_TEMPLATES[PageKind.GENRE]`)."""

import reflex as rx

from manga_app.components.layout import site_layout
from manga_app.routes import PageKind

KIND = PageKind.GENRE
# Page-specific on_load events, run after the navigation stack and the head.
ON_LOAD: list = []


def view() -> rx.Component:
    return site_layout(rx.el.h1("ジャンル", class_name="page-title"))
