"""Home `/`: the front door of the catalogue."""

import reflex as rx

from manga_app import routes
from manga_app.components.layout import site_layout
from manga_app.config import get_settings
from manga_app.routes import PageKind

KIND = PageKind.HOME
ON_LOAD: list = []
from manga_app.components.link import link


def view() -> rx.Component:
    return site_layout(
        rx.el.section(
            rx.el.h1(get_settings().site_name, class_name="home-title"),
            rx.el.p("日本語の生漫画を、スマホでも快適に。", class_name="home-lead"),
            rx.el.div(
                link("ジャンルから探す", href=routes.GENRES, class_name="chip"),
                link("作品を検索", href=routes.SEARCH, class_name="chip"),
                class_name="chip-row",
            ),
            class_name="home-hero",
        ),
        show_back=False,
    )
