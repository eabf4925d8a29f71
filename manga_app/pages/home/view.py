"""Home `/`: latest updates, popular and new series, genres."""

import reflex as rx

from manga_app.core import routes
from manga_app.ui.cards import card_shelf, placeholder_grid, placeholder_rows, update_list
from manga_app.ui.filters import genre_chips
from manga_app.ui.layout import site_layout
from manga_app.ui.link import link
from manga_app.core.config import get_settings
from manga_app.pages.home.state import LATEST_COUNT, SHELF_COUNT, HomeState
from manga_app.core.routes import PageKind
from manga_app.ui.page import page


def _section(title: str, section_id: str, body: rx.Component, more: rx.Component | None = None) -> rx.Component:
    return rx.el.section(
        rx.el.div(rx.el.h2(title, id=section_id, class_name="section-title"), more or rx.fragment(), class_name="section-head"),
        body,
        class_name="home-section",
        aria_labelledby=section_id,
    )


def _loaded_or(placeholder: rx.Component, content: rx.Component) -> rx.Component:
    # The prerendered page has no data yet: same-sized placeholders keep the layout still.
    return rx.cond(HomeState.loaded, content, placeholder)


@page(PageKind.HOME, on_load=[HomeState.load])
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
        _section(
            "最新更新",
            "home-latest",
            _loaded_or(placeholder_rows(LATEST_COUNT), update_list(HomeState.latest, label="最新更新")),
            link("もっと見る", href=routes.search_url(sort="updated"), class_name="section-more"),
        ),
        _section(
            "人気",
            "home-popular",
            _loaded_or(placeholder_grid(SHELF_COUNT, kind="card-shelf"), card_shelf(HomeState.popular, label="人気", stat="views")),
            link("もっと見る", href=routes.search_url(sort="popular"), class_name="section-more"),
        ),
        _section(
            "新作",
            "home-newest",
            _loaded_or(placeholder_grid(SHELF_COUNT, kind="card-shelf"), card_shelf(HomeState.newest, label="新作")),
            link("もっと見る", href=routes.search_url(sort="newest"), class_name="section-more"),
        ),
        _section(
            "ジャンル",
            "home-genres",
            genre_chips(HomeState.genres, label="ジャンル"),
            link("すべてのジャンル", href=routes.GENRES, class_name="section-more"),
        ),
        show_back=False,
    )
