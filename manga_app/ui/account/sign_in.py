"""The header's sign-in area and the sign-in panel of /library and /history.

The area has a fixed size whatever the state (loading, signed out, signed
in), so the header never shifts when the auth state arrives. Its menu is a
<details> (no server round trip to open it); assets/js/firebase/account_menu.js
closes it on an outside click, Escape or a chosen item."""

import reflex as rx

from manga_app.core import routes
from manga_app.ui.account.firebase import sign_in_anonymously, sign_in_with_google, sign_out
from manga_app.ui.link import link
from manga_app.visitor.auth_state import AuthState


def _avatar() -> rx.Component:
    return rx.cond(
        AuthState.avatar != "",
        rx.el.img(
            src=AuthState.avatar,
            alt="",
            class_name="account-avatar",
            custom_attrs={"width": "28", "height": "28", "referrerPolicy": "no-referrer"},
            loading="lazy",
            decoding="async",
        ),
        rx.el.span(AuthState.display_name[:1], class_name="account-avatar account-avatar-letter", aria_hidden="true"),
    )


def _action(label: str, attrs: dict[str, str], *, test_id: str, primary: bool = False) -> rx.Component:
    return rx.el.button(
        label,
        type="button",
        custom_attrs=attrs,
        class_name="account-menu-item" + (" account-menu-item-primary" if primary else ""),
        data_testid=test_id,
    )


def sign_in_choices(*, upgrade: bool = False) -> rx.Component:
    """Googleでログイン / ゲストとして続ける (a guest only sees Google, which keeps their library)."""
    if upgrade:
        return _action("Googleでログイン", sign_in_with_google(), test_id="sign-in-google", primary=True)
    return rx.fragment(
        _action("Googleでログイン", sign_in_with_google(), test_id="sign-in-google", primary=True),
        _action("ゲストとして続ける", sign_in_anonymously(), test_id="sign-in-guest"),
    )


def _shelf_links() -> rx.Component:
    return rx.el.div(
        link("ライブラリ", href=routes.LIBRARY, class_name="account-menu-item", data_testid="menu-library"),
        link("閲覧履歴", href=routes.HISTORY, class_name="account-menu-item", data_testid="menu-history"),
        class_name="account-menu-links",
    )


def _signed_out_menu() -> rx.Component:
    return rx.el.details(
        rx.el.summary("ログイン", class_name="account-trigger", data_testid="sign-in-open"),
        rx.el.div(
            rx.el.p("ログインすると、フォローと閲覧履歴をほかの端末でも使えます。", class_name="account-menu-note"),
            sign_in_choices(),
            _shelf_links(),
            class_name="account-menu",
        ),
        class_name="account-details",
    )


def _signed_in_menu() -> rx.Component:
    return rx.el.details(
        rx.el.summary(
            _avatar(),
            rx.el.span(AuthState.display_name, class_name="account-name", data_testid="account-name"),
            class_name="account-trigger account-trigger-user",
            aria_label="アカウント",
            data_testid="account-open",
        ),
        rx.el.div(
            rx.el.p(
                rx.cond(AuthState.is_anonymous, "ゲストとして利用中", AuthState.email),
                class_name="account-menu-note account-menu-who",
            ),
            _shelf_links(),
            rx.cond(
                AuthState.is_anonymous,
                rx.el.div(
                    rx.el.p("Googleでログインすると、ライブラリをそのまま引き継げます。", class_name="account-menu-note"),
                    sign_in_choices(upgrade=True),
                    class_name="account-menu-upgrade",
                ),
            ),
            link("アカウントとデータ", href=routes.ACCOUNT, class_name="account-menu-item", data_testid="menu-account"),
            _action("ログアウト", sign_out(), test_id="sign-out"),
            class_name="account-menu",
        ),
        class_name="account-details",
    )


def sign_in_area() -> rx.Component:
    """The header slot (ui/layout.py `_sign_in_area`)."""
    return rx.el.div(
        rx.cond(
            AuthState.loading,
            # A status (a span may not carry a name of its own): read as 読み込み中 until the state arrives.
            rx.el.span("", class_name="account-trigger account-loading", role="status", aria_busy="true",
                       aria_label="ログイン状態を読み込み中"),
            rx.cond(AuthState.signed_in, _signed_in_menu(), _signed_out_menu()),
        ),
        class_name="sign-in-area account-area",
        id="sign-in-area",
    )


def sign_in_panel(message: str) -> rx.Component:
    """Inside a page: why signing in helps, with the same two choices."""
    return rx.el.section(
        rx.el.p(message, class_name="account-panel-text"),
        rx.el.div(sign_in_choices(), class_name="account-panel-actions"),
        class_name="account-panel",
        data_testid="sign-in-panel",
    )


def account_bar() -> rx.Component:
    """Inside a page: who is signed in, with ログアウト (and the Google upgrade for guests)."""
    return rx.el.div(
        _avatar(),
        rx.el.div(
            rx.el.span(AuthState.display_name, class_name="account-name", data_testid="account-bar-name"),
            rx.el.span(
                rx.cond(AuthState.is_anonymous, "Googleでログインすると、ほかの端末でも使えます", AuthState.email),
                class_name="account-bar-note",
            ),
            class_name="account-bar-who",
        ),
        rx.el.div(
            rx.cond(AuthState.is_anonymous, sign_in_choices(upgrade=True)),
            _action("ログアウト", sign_out(), test_id="account-bar-sign-out"),
            class_name="account-bar-actions",
        ),
        class_name="account-bar",
    )
