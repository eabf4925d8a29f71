"""通知: the link to /notifications with the count of unseen new chapters
and volumes. One component wherever it is placed: the site header uses the
default (a bell alone on phones, the word beside it from 768 px); a phone's
tab bar passes its own `class_name` and `label_shown=True` to show the word
on phones too."""

import reflex as rx

from manga_app.visitor.notification_state import NotificationState
from manga_app.core import routes
from manga_app.ui.link import link


def notifications_link(*, class_name: str = "header-link notifications-link", label_shown: bool = False) -> rx.Component:
    unseen = NotificationState.badge != ""
    return link(
        # The badge sits on the bell's corner: a count arriving moves nothing.
        rx.el.span(
            rx.icon("bell", size=20, aria_hidden="true", class_name="notifications-icon"),
            rx.cond(
                unseen,
                rx.el.span(NotificationState.badge, class_name="notifications-badge", data_testid="notifications-count",
                           aria_hidden="true"),
            ),
            class_name="notifications-bell",
        ),
        # On a phone the bell alone (the word stays for screen readers); the word too from 768 px.
        rx.el.span("通知", class_name="notifications-label is-shown" if label_shown else "notifications-label"),
        href=routes.NOTIFICATIONS,
        class_name=class_name,
        aria_label=rx.cond(unseen, "通知（未読 " + NotificationState.badge + "件）", "通知"),
        data_testid="notifications-link",
    )
