"""通知 (`routes.NOTIFICATIONS`): the newest new chapters and volumes of the
series in the reader's library, each a link straight into the reader;
viewing them marks them seen."""

import reflex as rx

from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.notification_state import NotificationState
from manga_app.core.routes import PageKind
from manga_app.ui.account.library_parts import account_header, cover
from manga_app.ui.cards import moment_time
from manga_app.ui.layout import site_layout
from manga_app.ui.link import link
from manga_app.ui.page import page
from manga_app.ui.phrased import phrased


def _item(item: rx.Var) -> rx.Component:
    return rx.el.li(
        link(cover(item.cover), href=item.read_url, class_name="shelf-cover-link", aria_label=item.title + " " + item.unit),
        rx.el.div(
            link(phrased(item.parts), href=item.url, class_name="shelf-title phrased"),
            rx.el.p(
                link(item.unit, href=item.read_url, class_name="notification-unit", data_testid="notification-unit"),
                moment_time(item.published, class_name="shelf-muted"),
                class_name="shelf-meta",
            ),
            rx.cond(~item.seen, rx.el.span("新着", class_name="shelf-badge", data_testid="unseen-badge")),
            class_name="shelf-body",
        ),
        link("読む", href=item.read_url, class_name="shelf-continue"),
        class_name="shelf-item notification-item",
        data_testid="notification-item",
    )


def _empty() -> rx.Component:
    return rx.cond(
        NotificationState.loaded,
        rx.el.p("新しい話はまだありません。フォローした作品に新しい話や巻が出ると、ここにお知らせします。",
                class_name="shelf-empty", data_testid="notifications-empty"),
        rx.el.p("読み込み中…", class_name="shelf-empty shelf-muted"),
    )


@page(PageKind.NOTIFICATIONS, on_load=[NotificationState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.h1("通知", class_name="page-title"),
        account_header("ログインすると、フォローした作品の新しい話をお知らせします。"),
        rx.cond(
            AuthState.signed_in,
            rx.cond(
                NotificationState.items.length() > 0,
                rx.el.ul(rx.foreach(NotificationState.items, _item), class_name="shelf-list", aria_label="新しい話"),
                _empty(),
            ),
        ),
    )
