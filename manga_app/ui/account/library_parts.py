"""Parts shared by /library and /history."""

import reflex as rx

from manga_app.ui.account.sign_in import account_bar, sign_in_panel
from manga_app.ui.link import link
from manga_app.ui.phrased import phrased
from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.library_state import LibraryState


def cover(src: rx.Var) -> rx.Component:
    # Real width/height attributes: the list never shifts while covers load.
    return rx.el.img(
        src=src,
        alt="",
        class_name="shelf-cover",
        custom_attrs={"width": "64", "height": "90"},
        loading="lazy",
        decoding="async",
    )


def shelf_item(
    item: rx.Var, meta: tuple, *body: rx.Component, after: tuple = (), class_name: str, data_testid: str
) -> rx.Component:
    """A series in a shelf list: its cover and title (links to its page), a
    line of `meta`, then the page's own parts in the body and `after` it."""
    return rx.el.li(
        link(cover(item.cover), href=item.url, class_name="shelf-cover-link", aria_label=item.title),
        rx.el.div(
            link(phrased(item.parts), href=item.url, class_name="shelf-title phrased"),
            rx.el.p(*meta, class_name="shelf-meta"),
            *body,
            class_name="shelf-body",
        ),
        *after,
        class_name=class_name,
        data_testid=data_testid,
    )


def account_header(message: str) -> rx.Component:
    return rx.cond(
        AuthState.loading,
        rx.el.div(class_name="account-panel account-panel-loading", aria_busy="true"),
        rx.cond(AuthState.signed_in, account_bar(), sign_in_panel(message)),
    )


def shelf_list(items: rx.Var, render, *, label: str, empty: str) -> rx.Component:
    """A shelf's series, each drawn by `render`; `empty` when it has none
    (読み込み中 until the visitor's shelves are loaded)."""
    return rx.cond(
        items.length() > 0,
        rx.el.ul(rx.foreach(items, render), class_name="shelf-list", aria_label=label),
        _empty_note(empty),
    )


def _empty_note(text: str) -> rx.Component:
    return rx.cond(
        LibraryState.loaded,
        rx.el.p(text, class_name="shelf-empty", data_testid="shelf-empty"),
        rx.el.p("読み込み中…", class_name="shelf-empty shelf-muted"),
    )
