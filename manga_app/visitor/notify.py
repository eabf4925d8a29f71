"""Notifications from event handlers: antd's notification API (4.5 s each,
NOTIFICATION_MAX_COUNT at once), exposed by assets/js/antd_provider.jsx."""

from typing import Literal

import reflex as rx

from manga_app.visitor.client_commands import client_command

Kind = Literal["success", "info", "warning", "error"]


def notify(kind: Kind, message: str, description: str = "") -> rx.event.EventSpec:
    """Return this from an event handler to show a notification."""
    return client_command("notify", kind, message, description)
