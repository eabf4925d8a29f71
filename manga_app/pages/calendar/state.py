"""The weekday calendar's data: one day of the held calendar (read_models/discovery.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import ClassVar

import reflex as rx

from manga_app.core import discovery as rules
from manga_app.core.clock import page_now
from manga_app.pages.calendar import logic
from manga_app.read_models import discovery
from manga_app.cards.records import Card, PageLink, TabLink, calendar_card_for


class CalendarState(rx.State):
    page_content: ClassVar[bool] = True  # the same for every visitor, all from on_load (platform/page_content.py)
    day: str = ""
    day_label: str = ""
    cards: list[Card] = []
    day_tabs: list[TabLink] = []
    pager: list[PageLink] = []
    total: int = 0
    page: int = 1
    pages: int = 1
    loaded: bool = False
    counting: bool = False  # the first board is being computed (集計中)

    @rx.event
    async def load(self):
        now = datetime.now(UTC)
        query = rules.parse_calendar_query(self.router.url.query or "", now=now)
        board = await discovery.held_board().board()
        listing = discovery.calendar_listing(board, query.day, query.page, rules.CALENDAR_PER_PAGE)
        self.day, self.counting = query.day, board.pending
        self.day_label = "不定期" if query.day == rules.IRREGULAR else rules.DAY_LABELS[query.day] + "曜日"
        shown = page_now()  # the texts of this minute's cached first HTML (core/clock.py)
        self.cards = [calendar_card_for(item, updated_today=today, now=shown) for item, today in listing.items]
        self.day_tabs = logic.day_tabs(query, now=now)
        self.pager = logic.pager(query, listing.page, listing.pages)
        self.total, self.page, self.pages = listing.total, listing.page, listing.pages
        self.loaded = True
