"""アカウントとデータ (`/account`): what the site keeps about a reader, to
download as JSON or to delete with the account (visitor/data_state.py)."""

import reflex as rx

from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.data_state import AccountDataState
from manga_app.core.routes import PageKind
from manga_app.ui.account.library_parts import account_header
from manga_app.ui.layout import site_layout
from manga_app.ui.page import page
from manga_app.ui.actions import action

DIALOG_ID = "delete-account"


def _confirm_dialog() -> rx.Component:
    return rx.el.dialog(
        rx.el.p("アカウントを削除しますか？", id=f"{DIALOG_ID}-title", class_name="guest-sign-out-title"),
        rx.el.p("フォロー・閲覧履歴・読んだ位置・OPDSキーなど、このアカウントのデータをすべて削除し、ログアウトします。"
                "あとから元に戻せません。", class_name="guest-sign-out-text"),
        rx.el.div(
            rx.el.button("削除する", type="button", on_click=AccountDataState.delete_account,
                         custom_attrs=action("dialog-close", target=DIALOG_ID),
                         class_name="guest-sign-out-button guest-sign-out-leave", data_testid="delete-account-confirm"),
            rx.el.button("キャンセル", type="button", custom_attrs=action("dialog-close", target=DIALOG_ID),
                         class_name="guest-sign-out-button guest-sign-out-cancel", data_testid="delete-account-cancel"),
            class_name="guest-sign-out-actions",
        ),
        id=DIALOG_ID,
        class_name="guest-sign-out",
        aria_labelledby=f"{DIALOG_ID}-title",
    )


def _signed_in() -> rx.Component:
    return rx.el.div(
        rx.el.section(
            rx.el.h2("データのダウンロード", class_name="section-title"),
            rx.el.p("フォロー、閲覧履歴と読んだ位置、OPDSキーの有無など、このサイトがあなたについて保存しているすべてを"
                    "JSONファイルでダウンロードできます。", class_name="shelf-muted"),
            rx.el.button("データをダウンロード", type="button", on_click=AccountDataState.download,
                         class_name="account-data-button", data_testid="download-data"),
            aria_label="データのダウンロード",
            class_name="account-data-section",
        ),
        rx.el.section(
            rx.el.h2("アカウントの削除", class_name="section-title"),
            rx.el.p("アカウントと、このサイトに保存されたあなたのデータをすべて削除します。", class_name="shelf-muted"),
            rx.el.button("アカウントを削除", type="button",
                         custom_attrs=action("dialog-open", target=DIALOG_ID),
                         class_name="account-data-button account-data-danger", data_testid="delete-account"),
            _confirm_dialog(),
            aria_label="アカウントの削除",
            class_name="account-data-section",
        ),
    )


def _deleted() -> rx.Component:
    return rx.el.div(
        rx.el.h2("削除しました", class_name="section-title"),
        rx.el.ul(rx.foreach(AccountDataState.deleted, lambda line: rx.el.li(line)), data_testid="deleted-list"),
        role="status",
        data_testid="account-deleted",
    )


@page(PageKind.ACCOUNT, on_load=[AccountDataState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.h1("アカウントとデータ", class_name="page-title"),
        rx.cond(
            AccountDataState.deleted.length() > 0,
            _deleted(),
            rx.fragment(
                account_header("ログインすると、保存されたデータのダウンロードとアカウントの削除ができます。"),
                rx.cond(
                    AuthState.signed_in,
                    _signed_in(),
                    rx.el.p("ログインしていないあいだのフォローと閲覧履歴は、この端末のブラウザにだけ保存され、"
                            "サーバーには保存されません。", class_name="shelf-muted"),
                ),
            ),
        ),
    )
