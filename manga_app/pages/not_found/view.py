"""The Japanese not-found page (served with HTTP 404 by the server)."""

import reflex as rx

from manga_app.ui.layout import site_layout
from manga_app.ui.not_found import not_found_panel


def view() -> rx.Component:
    return site_layout(not_found_panel())
