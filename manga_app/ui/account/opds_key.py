"""/library's panels of personal keys: the reader-app (OPDS) catalogue and
the Atom feed. Each shows its key's state (create, show its URL once with a
copy button, revoke, remake) the same way (`_key_panel`)."""

import reflex as rx

from manga_app.visitor.personal_key_state import FeedKeyState, OpdsKeyState
from manga_app.ui.actions import action


def _button(label: str, on_click=None, *, attrs: dict[str, str] | None = None, primary: bool = False,
            test_id: str) -> rx.Component:
    """`on_click` an event of the key's state, or `attrs` a browser action (ui/actions.py)."""
    return rx.el.button(label, type="button", on_click=on_click, custom_attrs=attrs or {}, data_testid=test_id,
                        class_name="account-menu-item" + (" account-menu-item-primary" if primary else ""))


def _key_panel(state, *, prefix: str, title: str, intro: rx.Component, label: str) -> rx.Component:
    """`state` has url, active, created, load, create, revoke; test ids and the URL box start with `prefix`."""
    box = f"{prefix}-url"
    return rx.el.section(
        rx.el.h2(title, class_name="opds-title"),
        intro,
        rx.cond(
            state.url != "",
            rx.el.div(
                rx.el.label("あなた専用のURL（この画面でだけ表示されます）", html_for=box, class_name="opds-label"),
                rx.el.div(
                    rx.el.input(id=box, value=state.url, read_only=True, class_name="opds-url", data_testid=box),
                    _button("コピー", attrs=action("copy", target=box), test_id=f"{prefix}-copy"),
                    class_name="opds-url-row",
                ),
            ),
        ),
        rx.el.div(
            rx.cond(
                state.active,
                rx.fragment(
                    rx.el.span("キーは有効です（", state.created, "に作成）", class_name="opds-status",
                               data_testid=f"{prefix}-status"),
                    _button("無効にする", state.revoke, test_id=f"{prefix}-revoke"),
                    _button("作り直す", state.create, test_id=f"{prefix}-renew"),
                ),
                _button("キーを作成", state.create, primary=True, test_id=f"{prefix}-create"),
            ),
            class_name="opds-actions",
        ),
        on_mount=state.load,
        class_name="account-panel opds-panel",
        data_testid=f"{prefix}-panel",
        aria_label=label,
    )


def opds_panel() -> rx.Component:
    intro = rx.el.p(
        "Panels・Chunky・KOReader などのアプリに、カタログのURL ",
        rx.el.code(OpdsKeyState.public_url),
        " を登録できます。キーを作成すると、フォロー中と続きを読むもアプリで見られます。",
        class_name="account-panel-text",
    )
    return _key_panel(OpdsKeyState, prefix="opds", title="リーダーアプリで読む（OPDS）", intro=intro, label="リーダーアプリで読む")


def feed_panel() -> rx.Component:
    intro = rx.el.p(
        "フォロー中の作品の新しい話を、フィードリーダー（Atom）で受け取れます。キーを作成すると、あなた専用のURLが表示されます。"
        "各作品のフィードは作品ページから登録できます。",
        class_name="account-panel-text",
    )
    return _key_panel(FeedKeyState, prefix="feed", title="フィードリーダーで受け取る（Atom）", intro=intro,
                      label="フィードリーダーで受け取る")
