"""ジャンル `/genre/{name}`: the genre's titles, sortable and paged."""

import reflex as rx

from manga_app.ui.cards import card_grid, placeholder_grid
from manga_app.ui.filters import link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.pager import pager
from manga_app.pages.genre.state import GenreState
from manga_app.core.routes import PageKind
from manga_app.ui.page import page


@page(PageKind.GENRE, on_load=[GenreState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.div(
            rx.el.h1(rx.cond(GenreState.name != "", GenreState.name + "の漫画", "ジャンル"), class_name="page-title"),
            rx.el.p(
                rx.cond(GenreState.loaded, GenreState.total.to_string() + "作品", "読み込み中…"),
                rx.cond(GenreState.pages > 1, rx.el.span(" ・ ", GenreState.page, " / ", GenreState.pages, "ページ")),
                class_name="result-count",
                aria_live="polite",
            ),
            class_name="page-head",
        ),
        link_tabs(GenreState.sort_links, label="並び替え"),
        rx.el.div(
            rx.cond(GenreState.loaded, card_grid(GenreState.cards, label="作品一覧"), placeholder_grid(12)),
            pager(GenreState.pager),
            class_name="browse-results",
            # The server's first paint of the page goes once this is true.
            data_loaded=GenreState.loaded,
        ),
    )
