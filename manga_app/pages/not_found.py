"""The Japanese not-found page (served with HTTP 404 by the server)."""

import reflex as rx

from manga_app import routes
from manga_app.components import antd
from manga_app.components.layout import site_layout
from manga_app.components.link import link

NOT_FOUND_MESSAGE = "お探しのページは見つかりませんでした。"


def not_found_panel() -> rx.Component:
    """Also shown inside pages whose title or chapter turns out not to exist."""
    return antd.result(
        status="404",
        title="ページが見つかりません",
        sub_title=NOT_FOUND_MESSAGE + "URLが正しいかご確認ください。",
        extra=link("トップページへ戻る", href=routes.HOME, class_name="button-primary"),
    )


def view() -> rx.Component:
    return site_layout(not_found_panel())
