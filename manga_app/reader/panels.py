"""What the reader shows while the pages load, and when they cannot."""

import reflex as rx

from manga_app.ui.link import link

LOAD_ERROR = "ページを読み込めませんでした"


def loading_panel() -> rx.Component:
    # Holds the screen's height so the first page does not push anything.
    return rx.el.div(
        rx.el.div(class_name="reader-spinner", aria_hidden="true"),
        rx.el.p("読み込み中…", class_name="reader-status-text"),
        class_name="reader-status",
        role="status",
        aria_live="polite",
    )


def error_panel(on_retry: rx.EventHandler, back_url: rx.Var | str) -> rx.Component:
    return rx.el.div(
        rx.el.p(LOAD_ERROR, class_name="reader-error-title"),
        rx.el.p("通信状況を確認して、もう一度お試しください。", class_name="reader-status-text"),
        rx.el.div(
            # A plain button, not antd's: the reader would otherwise load antd (59 KB of
            # gzipped script) with its first page for a panel most readers never see.
            rx.el.button("再読み込み", type="button", on_click=on_retry, class_name="reader-retry"),
            link("作品ページへ", href=back_url, class_name="reader-error-link"),
            class_name="reader-error-actions",
        ),
        class_name="reader-status reader-error",
        role="alert",
    )
