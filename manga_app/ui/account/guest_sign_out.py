"""The question a guest is asked before ログアウト: a guest's follows, history
and reading positions live only in that anonymous account, so signing out
loses them for good. Googleでログイン keeps them (the guest is linked).

One <dialog> for the whole app (rendered beside the Firebase root); the
client (assets/js/firebase/client.jsx, `requestSignOut`) opens it instead of
signing out when the signed-in user is a guest."""

import reflex as rx

from manga_app.ui.actions import action

DIALOG_ID = "guest-sign-out"
TITLE = "ゲストのままログアウトしますか？"


def _button(label: str, attrs: dict[str, str], *, kind: str, test_id: str) -> rx.Component:
    return rx.el.button(label, type="button", custom_attrs=attrs, data_testid=test_id,
                        class_name=f"guest-sign-out-button guest-sign-out-{kind}")


def guest_sign_out_dialog() -> rx.Component:
    return rx.el.dialog(
        # Not a heading: the dialog is in every page's HTML, also pages with no h1 (the reader).
        rx.el.p(TITLE, id=f"{DIALOG_ID}-title", class_name="guest-sign-out-title"),
        rx.el.p(
            "ゲストのフォロー・閲覧履歴・読んだ位置は、ログアウトするとすべて消え、あとから元に戻せません。",
            class_name="guest-sign-out-text",
        ),
        rx.el.p("Googleでログインすると、いまのライブラリをそのまま引き継げます。", class_name="guest-sign-out-text"),
        rx.el.div(
            _button("Googleでログインして残す", action("sign-in-google", close=DIALOG_ID), kind="keep", test_id="guest-sign-out-google"),
            _button("消してログアウト", action("sign-out-now", close=DIALOG_ID), kind="leave", test_id="guest-sign-out-confirm"),
            _button("キャンセル", action("dialog-close", target=DIALOG_ID), kind="cancel",
                    test_id="guest-sign-out-cancel"),
            class_name="guest-sign-out-actions",
        ),
        id=DIALOG_ID,
        class_name="guest-sign-out",
        aria_labelledby=f"{DIALOG_ID}-title",
        data_testid="guest-sign-out",
    )
