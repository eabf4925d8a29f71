"""通知: the link to /notifications with the count of unseen new chapters
and volumes. One component wherever it is placed (the site header, a
phone's tab bar): `notifications_link(class_name=...)`."""

import reflex as rx

from manga_app.accounts.notification_state import NotificationState
from manga_app.core import routes
from manga_app.ui.link import link


def notifications_link(*, class_name: str = "header-link notifications-link") -> rx.Component:
    unseen = NotificationState.badge != ""
    return link(
        rx.icon("bell", size=20, aria_hidden="true", class_name="notifications-icon"),
        # On a phone the bell alone (the label stays for screen readers); the word from 768 px.
        rx.el.span("通知", class_name="notifications-label"),
        rx.cond(
            unseen,
            rx.el.span(NotificationState.badge, class_name="notifications-badge", data_testid="notifications-count",
                       aria_hidden="true"),
        ),
        href=routes.NOTIFICATIONS,
        class_name=class_name,
        aria_label=rx.cond(unseen, "通知（未読 " + NotificationState.badge + "件）", "通知"),
        data_testid="notifications-link",
    )
