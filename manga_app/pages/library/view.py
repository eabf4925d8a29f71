"""ライブラリ (`routes.ROUTE_TEMPLATES[PageKind.LIBRARY]`): followed series,
newest update first, with the chapters published since the visitor last
read each."""

import reflex as rx

from manga_app.ui.account.follow import follow_button
from manga_app.ui.account.library_parts import account_header, shelf_item, shelf_list
from manga_app.ui.account.opds_key import feed_panel, opds_panel
from manga_app.ui.cards import moment_time
from manga_app.ui.layout import site_layout
from manga_app.core.routes import PageKind
from manga_app.ui.page import page
from manga_app.accounts.auth_state import AuthState
from manga_app.accounts.library_state import LibraryState
from manga_app.offline.parts import offline_library


def _item(item: rx.Var) -> rx.Component:
    return shelf_item(
        item,
        (rx.el.span(item.latest), moment_time(item.updated, class_name="shelf-muted")),
        rx.cond(item.new != "", rx.el.span(item.new, class_name="shelf-badge", data_testid="new-badge")),
        after=(follow_button(item.slug),),
        class_name="shelf-item",
        data_testid="library-item",
    )


@page(PageKind.LIBRARY, on_load=[LibraryState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.h1("ライブラリ", class_name="page-title"),
        offline_library(),
        account_header("ログインすると、フォローと閲覧履歴をほかの端末でも見られます。"),
        shelf_list(LibraryState.library_items, _item, label="フォロー中の作品",
                   empty="フォロー中の作品はまだありません。作品ページの「フォロー」で追加できます。"),
        rx.cond(AuthState.signed_in, rx.fragment(opds_panel(), feed_panel())),
    )
