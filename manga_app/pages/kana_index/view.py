"""五十音 `/index/{row}`: the row's titles in 五十音順, paged; the tabs
go to every row with its count."""

import reflex as rx

from manga_app.core.routes import PageKind
from manga_app.pages.kana_index.state import KanaRowState
from manga_app.ui.cards import card_grid, placeholder_grid
from manga_app.ui.filters import link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.page import page
from manga_app.ui.pager import pager


@page(PageKind.KANA_ROW, on_load=[KanaRowState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.div(
            rx.el.h1(KanaRowState.heading, class_name="page-title"),
            rx.el.p(
                rx.cond(KanaRowState.loaded, KanaRowState.total.to_string() + "作品・読みの五十音順", "読み込み中…"),
                rx.cond(KanaRowState.pages > 1, rx.el.span(" ・ ", KanaRowState.page, " / ", KanaRowState.pages, "ページ")),
                class_name="result-count",
                aria_live="polite",
            ),
            class_name="page-head",
        ),
        link_tabs(KanaRowState.row_tabs, label="五十音の行"),
        rx.el.div(
            rx.cond(
                KanaRowState.loaded & (KanaRowState.total == 0),
                rx.el.p("この行の作品はまだありません。", class_name="empty-note"),
                rx.cond(KanaRowState.loaded, card_grid(KanaRowState.cards, label="作品一覧"), placeholder_grid(12)),
            ),
            pager(KanaRowState.pager),
            class_name="browse-results",
            data_loaded=KanaRowState.loaded,
        ),
    )
