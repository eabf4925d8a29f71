"""/library's reader-app panel: the OPDS catalogue's URL, and the personal
key (create, show its URL once with a copy button, revoke)."""

import reflex as rx

from manga_app.accounts.opds_key_state import OpdsKeyState

_COPY_SCRIPT = (
    "(() => { const box = document.getElementById('opds-url'); if (!box) return; box.select();"
    " const done = () => window.mangaNotify && window.mangaNotify('success', 'URLをコピーしました', '');"
    " if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(box.value).then(done); return; }"
    " document.execCommand('copy'); done(); })()"
)


def _button(label: str, on_click, *, primary: bool = False, test_id: str) -> rx.Component:
    return rx.el.button(label, type="button", on_click=on_click, data_testid=test_id,
                        class_name="account-menu-item" + (" account-menu-item-primary" if primary else ""))


def opds_panel() -> rx.Component:
    return rx.el.section(
        rx.el.h2("リーダーアプリで読む（OPDS）", class_name="opds-title"),
        rx.el.p(
            "Panels・Chunky・KOReader などのアプリに、カタログのURL ",
            rx.el.code(OpdsKeyState.public_url),
            " を登録できます。キーを作成すると、フォロー中と続きを読むもアプリで見られます。",
            class_name="account-panel-text",
        ),
        rx.cond(
            OpdsKeyState.url != "",
            rx.el.div(
                rx.el.label("あなた専用のURL（この画面でだけ表示されます）", html_for="opds-url", class_name="opds-label"),
                rx.el.div(
                    rx.el.input(id="opds-url", value=OpdsKeyState.url, read_only=True, class_name="opds-url",
                                data_testid="opds-url"),
                    _button("コピー", rx.call_script(_COPY_SCRIPT), test_id="opds-copy"),
                    class_name="opds-url-row",
                ),
            ),
        ),
        rx.el.div(
            rx.cond(
                OpdsKeyState.active,
                rx.fragment(
                    rx.el.span("キーは有効です（", OpdsKeyState.created, "に作成）", class_name="opds-status",
                               data_testid="opds-status"),
                    _button("無効にする", OpdsKeyState.revoke, test_id="opds-revoke"),
                    _button("作り直す", OpdsKeyState.create, test_id="opds-renew"),
                ),
                _button("キーを作成", OpdsKeyState.create, primary=True, test_id="opds-create"),
            ),
            class_name="opds-actions",
        ),
        on_mount=OpdsKeyState.load,
        class_name="account-panel opds-panel",
        data_testid="opds-panel",
        aria_label="リーダーアプリで読む",
    )
