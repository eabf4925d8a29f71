"""A listing page (genre, author, tag, a 五十音 row): its heading and count,
the tabs (sorts or rows), the grid of cards and the pager, drawn from a
state built on ListingState (ui/listing_state.py)."""

import reflex as rx

from manga_app.ui.cards import card_grid, placeholder_grid
from manga_app.ui.filters import link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.pager import pager
from manga_app.ui.phrased import phrased


def listing_page(state: type, *, count: str, tabs_label: str, phrased_heading: bool = True,
                 empty_note: str = "") -> rx.Component:
    """`state.heading` is phrase parts (or plain text: phrased_heading=False);
    `count` follows the number of series; `empty_note` replaces an empty grid."""
    heading = (rx.el.h1(phrased(state.heading), class_name="page-title phrased") if phrased_heading
               else rx.el.h1(state.heading, class_name="page-title"))
    grid = rx.cond(state.loaded, card_grid(state.cards, label="作品一覧"), placeholder_grid(12))
    if empty_note:
        grid = rx.cond(state.loaded & (state.total == 0), rx.el.p(empty_note, class_name="empty-note"), grid)
    return site_layout(
        rx.el.div(
            heading,
            rx.el.p(
                rx.cond(state.loaded, state.total.to_string() + count, "読み込み中…"),
                rx.cond(state.pages > 1, rx.el.span(" ・ ", state.page, " / ", state.pages, "ページ")),
                class_name="result-count",
                aria_live="polite",
            ),
            class_name="page-head",
        ),
        link_tabs(state.tabs, label=tabs_label),
        rx.el.div(
            grid,
            pager(state.pager),
            class_name="browse-results",
            # The server's first paint of the page goes once this is true.
            data_loaded=state.loaded,
        ),
    )
