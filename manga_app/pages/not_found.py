"""The Japanese not-found page (served with HTTP 404 by the server)."""

import reflex as rx

from manga_app.components.layout import site_layout
from manga_app.components.not_found import not_found_panel


def view() -> rx.Component:
    return site_layout(not_found_panel())
