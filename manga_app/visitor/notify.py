"""Notifications from event handlers: antd's notification API (4.5 s each,
NOTIFICATION_MAX_COUNT at once), exposed by assets/js/antd_provider.jsx."""

import json
from typing import Literal

import reflex as rx

Kind = Literal["success", "info", "warning", "error"]


def notify(kind: Kind, message: str, description: str = "") -> rx.event.EventSpec:
    """Return this from an event handler to show a notification."""
    args = ", ".join(json.dumps(value, ensure_ascii=False) for value in (kind, message, description))
    return rx.call_script(f"window.mangaNotify && window.mangaNotify({args})")
