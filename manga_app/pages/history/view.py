"""閲覧履歴 (`routes.ROUTE_TEMPLATES[PageKind.HISTORY]`): the series the
visitor read, most recent first, each with a continue link; entries can be
removed one by one or all at once."""

import reflex as rx

from manga_app.ui.account.follow import follow_button
from manga_app.ui.account.library_parts import account_header, shelf_item, shelf_list
from manga_app.ui.cards import moment_time
from manga_app.ui.layout import site_layout
from manga_app.ui.link import link
from manga_app.core.routes import PageKind
from manga_app.ui.page import page
from manga_app.visitor.library_state import LibraryState
from manga_app.offline.parts import offline_history


def _item(item: rx.Var) -> rx.Component:
    return shelf_item(
        item,
        (
            rx.el.span(item.chapter, data_testid="history-chapter"),
            rx.el.span(item.page, class_name="shelf-muted", data_testid="history-page"),
        ),
        moment_time(item.read, class_name="shelf-muted shelf-time"),
        rx.el.div(
            link("続きを読む", href=item.continue_url, class_name="shelf-continue", data_testid="continue-link"),
            follow_button(item.slug),
            rx.el.button(
                "削除",
                type="button",
                on_click=LibraryState.remove_history(item.slug),
                class_name="shelf-remove",
                aria_label="履歴から削除",
                data_testid="history-remove",
            ),
            class_name="shelf-actions",
        ),
        class_name="shelf-item shelf-item-history",
        data_testid="history-item",
    )


def _clear_all() -> rx.Component:
    # A second click confirms: clearing everything is not undoable.
    return rx.el.details(
        rx.el.summary("すべて削除", class_name="shelf-clear", data_testid="history-clear-open"),
        rx.el.div(
            rx.el.span("閲覧履歴をすべて削除しますか？"),
            rx.el.button(
                "削除する",
                type="button",
                on_click=LibraryState.clear_history,
                class_name="shelf-remove shelf-remove-strong",
                data_testid="history-clear",
            ),
            class_name="shelf-clear-confirm",
        ),
        class_name="shelf-clear-details",
    )


@page(PageKind.HISTORY, on_load=[LibraryState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.div(
            rx.el.h1("閲覧履歴", class_name="page-title"),
            rx.cond(LibraryState.history_items.length() > 0, _clear_all()),
            class_name="shelf-heading",
        ),
        offline_history(),
        account_header("ログインすると、閲覧履歴と読んだ位置をほかの端末でも引き継げます。"),
        shelf_list(LibraryState.history_items, _item, label="閲覧履歴",
                   empty="閲覧履歴はまだありません。読んだ作品がここに表示されます。"),
    )
