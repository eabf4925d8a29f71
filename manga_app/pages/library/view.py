"""ライブラリ (`routes.ROUTE_TEMPLATES[PageKind.LIBRARY]`): the series in the
visitor's library, a tab per reading-list status with its count
(`?status=`), sorted by latest update, title or when added (`?sort=`), each
with its unread count and 更新あり."""

import reflex as rx

from manga_app.ui.account.follow import follow_button
from manga_app.ui.account.library_parts import account_header, shelf_item, shelf_list
from manga_app.ui.account.lists import status_picker
from manga_app.ui.account.opds_key import feed_panel, opds_panel
from manga_app.ui.cards import moment_time
from manga_app.ui.filters import link_tabs
from manga_app.ui.layout import site_layout
from manga_app.core.routes import PageKind
from manga_app.ui.page import page
from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.library_state import LibraryState
from manga_app.offline.parts import offline_library


def _item(item: rx.Var) -> rx.Component:
    return shelf_item(
        item,
        (rx.el.span(item.latest), moment_time(item.updated, class_name="shelf-muted")),
        rx.el.div(
            rx.cond(item.unread != "", rx.el.span(item.unread, class_name="shelf-badge", data_testid="unread-badge")),
            rx.cond(item.fresh, rx.el.span("更新あり", class_name="shelf-badge shelf-fresh", data_testid="fresh-badge")),
            class_name="shelf-flags",
        ),
        rx.el.div(status_picker(item.slug, label=item.title + "の状態"), follow_button(item.slug), class_name="shelf-actions"),
        class_name="shelf-item shelf-item-library",
        data_testid="library-item",
    )


@page(PageKind.LIBRARY, on_load=[LibraryState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.h1("ライブラリ", class_name="page-title"),
        offline_library(),
        account_header("ログインすると、ライブラリと閲覧履歴をほかの端末でも見られます。"),
        link_tabs(LibraryState.library_tabs, label="読書状態"),
        rx.el.div(link_tabs(LibraryState.library_sorts, label="並び順"), class_name="library-sorts"),
        shelf_list(LibraryState.library_items, _item, label="ライブラリの作品",
                   empty="この状態の作品はまだありません。作品ページの「フォロー」や状態の選択で追加できます。"),
        rx.cond(AuthState.signed_in, rx.fragment(opds_panel(), feed_panel())),
    )
