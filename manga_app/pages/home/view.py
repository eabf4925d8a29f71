"""Home `/`, phone first and filling a desktop: 続きを読む, 最新更新 as a
cover grid, the day's ranking, today's weekday list, 人気, 新作, 完結 picks
and the genres."""

import reflex as rx

from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app.core.routes import PageKind
from manga_app.pages.home import parts
from manga_app.pages.home.state import LATEST_COUNT, SHELF_COUNT, HomeState
from manga_app.ui.cards import placeholder_grid
from manga_app.ui.filters import genre_chips, link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.link import link
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


def _shelf(title: str, section_id: str, items: rx.Var, render, more_href: str, empty: str = "") -> rx.Component:
    row = parts.carousel(f"{section_id}-row", title, items, render)
    body = rx.cond(items.length() > 0, row, rx.el.p(empty, class_name="empty-note")) if empty else row
    return _section(
        title, section_id,
        _loaded_or(placeholder_grid(SHELF_COUNT, kind="carousel-row"), body),
        link("もっと見る", href=more_href, class_name="section-more"),
    )


def _board_note() -> rx.Component:
    return rx.cond(
        HomeState.counting,
        rx.el.p("集計中です。まもなく表示されます。", class_name="empty-note counting-note", role="status"),
        rx.el.p("今日はまだ読まれた作品がありません。", class_name="empty-note"),
    )


def _continue() -> rx.Component:
    # Only the visitor's browser knows it: drawn once the app has their history.
    return rx.cond(
        HomeState.continue_reading.length() > 0,
        _section("続きを読む", "home-continue",
                 parts.carousel("home-continue-row", "続きを読む", HomeState.continue_reading, parts.continue_card),
                 link("閲覧履歴", href=routes.HISTORY, class_name="section-more")),
    )


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
        _continue(),
        _section(
            "最新更新",
            "home-latest",
            _loaded_or(placeholder_grid(LATEST_COUNT, kind="card-grid home-grid"),
                       rx.el.ul(rx.foreach(HomeState.latest, parts.latest_card), class_name="card-grid home-grid",
                                aria_label="最新更新")),
            link("もっと見る", href=routes.search_url(sort="updated"), class_name="section-more"),
        ),
        _section(
            "今日のランキング",
            "home-ranking",
            _loaded_or(placeholder_grid(SHELF_COUNT, kind="carousel-row"), rx.cond(
                HomeState.ranking.length() > 0,
                parts.carousel("home-ranking-row", "今日のランキング", HomeState.ranking, parts.rank_card),
                _board_note(),
            )),
            link("もっと見る", href=routes.RANKING, class_name="section-more"),
        ),
        _section(
            "曜日別の更新",
            "home-weekday",
            rx.fragment(
                link_tabs(HomeState.weekday_tabs, label="曜日"),
                _loaded_or(placeholder_grid(SHELF_COUNT, kind="carousel-row"), rx.cond(
                    HomeState.today.length() > 0,
                    parts.carousel("home-weekday-row", "今日の更新", HomeState.today, parts.shelf_card),
                    rx.el.p("この曜日に更新される作品はまだありません。", class_name="empty-note"),
                )),
            ),
            link("もっと見る", href=routes.CALENDAR, class_name="section-more"),
        ),
        _shelf("人気", "home-popular", HomeState.popular, parts.views_card, routes.search_url(sort="popular")),
        _shelf("新作", "home-newest", HomeState.newest, parts.shelf_card, routes.search_url(sort="newest")),
        _shelf("完結作品", "home-completed", HomeState.completed, parts.shelf_card,
               routes.search_url(status="completed", sort="popular"), empty="完結した作品はまだありません。"),
        _section(
            "ジャンル",
            "home-genres",
            genre_chips(HomeState.genres, label="ジャンル"),
            link("すべてのジャンル", href=routes.GENRES, class_name="section-more"),
        ),
        show_back=False,
    )
