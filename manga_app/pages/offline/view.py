"""保存した話 (`/offline`): the chapters this browser keeps for reading
without a connection (assets/js/offline/shelf.jsx draws the list, which is
the browser's own). The service worker keeps this page, so it opens offline."""

import reflex as rx

from manga_app.ui.layout import site_layout
from manga_app.offline.parts import offline_shelf
from manga_app.core.routes import PageKind
from manga_app.ui.page import page


@page(PageKind.OFFLINE)
def view() -> rx.Component:
    return site_layout(
        rx.el.h1("保存した話", class_name="page-title"),
        rx.el.p(
            "オフライン保存した話と最近読んだ話は、接続がなくても読めます。読んだ位置は接続が戻ったときに同期されます。",
            class_name="shelf-muted",
        ),
        offline_shelf(),
    )
