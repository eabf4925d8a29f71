"""検索 `/search?q=&genre=&exclude=&status=&sort=&page=`: results as you type."""

import reflex as rx

from manga_app.ui.cards import card_grid, placeholder_grid
from manga_app.ui.filters import filter_chips, link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.pager import pager
from manga_app.ui.search_box import search_field
from manga_app.ui.search_suggest import combobox_props, suggestion_list
from manga_app.ui.phrased import phrased
from manga_app.pages.search.state import SearchState
from manga_app.core.routes import PageKind
from manga_app.ui.page import page
from manga_app.search.normalize import MAX_QUERY_CHARS

# Keystrokes closer together than this are sent as one event.
TYPING_DEBOUNCE_MS = 150
INPUT_ID = "search-page-input"


def _search_form() -> rx.Component:
    return rx.el.form(
        search_field(
            **combobox_props(INPUT_ID),
            default_value=SearchState.query,
            key=SearchState.input_key,
            on_change=SearchState.type_query.debounce(TYPING_DEBOUNCE_MS),
            # The box is in the first HTML: the visitor may type before the app starts.
            on_mount=SearchState.typed_before_start(rx.Var(f"document.getElementById('{INPUT_ID}')?.value ?? ''")),
            placeholder="タイトル・よみがな・ローマ字",
            aria_label="検索キーワード",
            max_length=MAX_QUERY_CHARS,
            class_name="search-field",
        ),
        suggestion_list(INPUT_ID),
        rx.el.button("検索", type="submit", class_name="search-submit"),
        on_submit=SearchState.submit,
        role="search",
        aria_label="作品検索",
        class_name="search-form",
    )


def _filters() -> rx.Component:
    return rx.el.details(
        rx.el.summary("絞り込み（ジャンル・状態）", class_name="filters-summary"),
        rx.el.div(
            rx.el.h2("状態", class_name="filters-title"),
            link_tabs(SearchState.status_links, label="連載状態"),
            rx.el.h2("ジャンル", class_name="filters-title"),
            rx.el.p("タップするたびに「含む ✓」→「除く ✕」→「指定なし」に切り替わります。", class_name="filters-hint"),
            filter_chips(SearchState.genre_chips, label="ジャンルで絞り込み"),
            class_name="filters-body",
        ),
        class_name="filters",
    )


def _empty_state() -> rx.Component:
    return rx.el.div(
        rx.el.p("条件に一致する作品は見つかりませんでした。", class_name="empty-note"),
        rx.cond(
            SearchState.suggestions.length() > 0,
            rx.el.section(
                rx.el.h2(SearchState.suggestion_title, class_name="section-title"),
                card_grid(SearchState.suggestions, label=SearchState.suggestion_title),
                class_name="suggestions",
            ),
        ),
        class_name="empty-state",
    )


def _results() -> rx.Component:
    return rx.el.div(
        rx.cond(SearchState.notice != "", rx.el.p(SearchState.notice, class_name="notice", role="status")),
        rx.cond(SearchState.total > 0, card_grid(SearchState.cards, label="検索結果"), _empty_state()),
        pager(SearchState.pager),
    )


@page(PageKind.SEARCH, on_load=[SearchState.load])
def view() -> rx.Component:
    # One search box on the page: this page's, not the header's too.
    return site_layout(
        rx.el.h1(phrased(SearchState.heading_parts), class_name="page-title phrased"),
        _search_form(),
        _filters(),
        rx.el.div(
            rx.el.p(
                rx.cond(SearchState.loaded, SearchState.total.to_string() + "件", "読み込み中…"),
                class_name="result-count",
                aria_live="polite",
            ),
            link_tabs(SearchState.sort_links, label="並び替え"),
            class_name="result-bar",
        ),
        # data-loaded: the server's first paint of the page goes once it is true.
        rx.el.div(rx.cond(SearchState.loaded, _results(), placeholder_grid(12)), class_name="browse-results", data_loaded=SearchState.loaded),
        header_search=False,
    )
