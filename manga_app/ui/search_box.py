"""The site's search box: in the header of every site page but the search
page (which has its own), and on the not-found page."""

import reflex as rx

from manga_app.core import routes
from manga_app.ui.search_box_state import MAX_QUERY_LENGTH, SearchBoxState
from manga_app.ui.search_suggest import combobox_props, suggestion_list


def search_field(**props) -> rx.Component:
    """The words of a search (`q`), as every search box of the site asks them."""
    return rx.el.input(**{"type": "search", "name": "q", "auto_complete": "off", "enter_key_hint": "search", **props})


def search_box(*, label: str, input_id: str, class_name: str = "") -> rx.Component:
    """A search form named `label`: each search landmark of a page has its own
    name. Suggestions open under the box (`input_id`) as the visitor types.

    Plain elements, not antd's Input.Search: the box is on every page, and
    antd's (its theme's token, its CSS variables, its component hooks and a
    hidden loading icon) was most of antd's main-thread work while a page
    hydrated. Uncontrolled: what a visitor types before the app starts
    stays, and without JavaScript the form still searches."""
    return rx.el.form(
        search_field(
            placeholder="タイトル・作者・よみがなで検索",
            aria_label="作品を検索",
            max_length=MAX_QUERY_LENGTH,
            class_name="header-search-input",
            **combobox_props(input_id),
        ),
        suggestion_list(input_id),
        rx.el.button(
            rx.icon("search", size=16, aria_hidden="true"),
            "検索",
            type="submit",
            class_name="header-search-button",
        ),
        action=routes.SEARCH,
        method="get",
        role="search",
        aria_label=label,
        class_name=f"header-search {class_name}".strip(),
        on_submit=SearchBoxState.submit,
    )
