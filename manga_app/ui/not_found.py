"""The Japanese not-found panel: the 404 page, and any page whose title,
genre or chapter turns out not to exist after a client-side navigation."""

import reflex as rx

from manga_app.core import routes
from manga_app.ui import antd
from manga_app.ui.link import link

NOT_FOUND_MESSAGE = "お探しのページは見つかりませんでした。"


def not_found_panel() -> rx.Component:
    return antd.result(
        status="404",
        title="ページが見つかりません",
        sub_title=NOT_FOUND_MESSAGE + "URLが正しいかご確認ください。",
        extra=link("トップページへ戻る", href=routes.HOME, class_name="button-primary"),
    )
