"""作者 `/author/{name}`: every series by one author, sortable and paged; the
tag page's view (pages/tag/view.py) is this one with its own state."""

import reflex as rx

from manga_app.core.routes import PageKind
from manga_app.pages.author.state import AuthorState
from manga_app.ui.cards import card_grid, placeholder_grid
from manga_app.ui.filters import link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.page import page
from manga_app.ui.pager import pager
from manga_app.ui.phrased import phrased


def named_list(state: type) -> rx.Component:
    """The listing of one name's series (`state`: AuthorState or TagState)."""
    return site_layout(
        rx.el.div(
            rx.el.h1(phrased(state.heading), class_name="page-title phrased"),
            rx.el.p(
                rx.cond(state.loaded, state.total.to_string() + "作品", "読み込み中…"),
                rx.cond(state.pages > 1, rx.el.span(" ・ ", state.page, " / ", state.pages, "ページ")),
                class_name="result-count",
                aria_live="polite",
            ),
            class_name="page-head",
        ),
        link_tabs(state.sort_links, label="並び替え"),
        rx.el.div(
            rx.cond(state.loaded, card_grid(state.cards, label="作品一覧"), placeholder_grid(12)),
            pager(state.pager),
            class_name="browse-results",
            data_loaded=state.loaded,
        ),
    )


@page(PageKind.AUTHOR, on_load=[AuthorState.load])
def view() -> rx.Component:
    return named_list(AuthorState)
