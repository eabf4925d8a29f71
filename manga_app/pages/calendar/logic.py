"""The calendar page's day tabs and pager (its query: core/discovery.py). No framework imports."""

from __future__ import annotations

from datetime import datetime

from manga_app.core import discovery, routes
from manga_app.core.discovery import CalendarQuery
from manga_app.cards.records import PageLink, TabLink, pager_links


def day_tabs(query: CalendarQuery, *, now: datetime) -> list[TabLink]:
    today = discovery.parse_day(None, now=now)
    return [
        TabLink(label=label + ("(今日)" if day == today else ""), href=routes.calendar_url(day), current=day == query.day)
        for day, label in discovery.DAY_LABELS.items()
    ]


def pager(query: CalendarQuery, page: int, pages: int) -> list[PageLink]:
    return pager_links(page, pages, lambda number: routes.calendar_url(query.day, number))
