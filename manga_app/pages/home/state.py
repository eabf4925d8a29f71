"""The home page's data: the held catalogue's orderings, the held board's
day ranking and today's weekday list, and the visitor's 続きを読む (from the
reading history in the browser, which mirrors the account's when signed in)."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import islice
from typing import ClassVar

import reflex as rx

from manga_app.core import discovery as rules
from manga_app.core import routes
from manga_app.core.clock import page_now
from manga_app.pages.home.logic import ContinueCard, continue_cards
from manga_app.read_models import discovery
from manga_app.read_models.compact import STATUSES
from manga_app.read_models.held import held_catalogue
from manga_app.visitor.reading_state import ReadingState
from manga_app.cards.records import Card, Chip, RankCard, TabLink, calendar_card_for, card_for, genre_chip, rank_card_for

LATEST_COUNT = 24  # 最新更新's cover grid: three rows of eight on a desktop
SHELF_COUNT = 12
RANKING_COUNT = 10
GENRE_CHIPS = 20


class HomeState(rx.State):
    page_content: ClassVar[bool] = True  # the same for every visitor, all from on_load (platform/page_content.py)
    latest: list[Card] = []
    ranking: list[RankCard] = []
    weekday_tabs: list[TabLink] = []
    today: list[Card] = []
    popular: list[Card] = []
    newest: list[Card] = []
    completed: list[Card] = []
    genres: list[Chip] = []
    counting: bool = False  # the first board is being computed (集計中)
    loaded: bool = False

    @rx.var
    async def continue_reading(self) -> list[ContinueCard]:
        history = await self.get_state(ReadingState)
        snapshot = await held_catalogue().snapshot()
        return continue_cards(history._entries(), known=snapshot.by_slug)

    @rx.event
    async def load(self):
        snapshot = await held_catalogue().snapshot()
        board = await discovery.held_board().board()
        now = page_now()  # the texts of this minute's cached first HTML (core/clock.py)
        self.latest = [card_for(item, now=now) for item in snapshot.latest[:LATEST_COUNT]]
        ranked = discovery.ranking_listing(board, rules.DAY, "", 1, RANKING_COUNT)
        self.ranking = [rank_card_for(item, place, now=now) for item, place in ranked.items]
        today = rules.parse_day(None, now=datetime.now(UTC))
        self.weekday_tabs = [
            TabLink(label=label + ("(今日)" if day == today else ""), href=routes.calendar_url(day), current=day == today)
            for day, label in rules.WEEKDAY_LABELS.items()
        ]
        listed = discovery.calendar_listing(board, today, 1, SHELF_COUNT)
        self.today = [calendar_card_for(item, updated_today=fresh, now=now) for item, fresh in listed.items]
        self.counting = board.pending
        self.popular = [card_for(item, now=now) for item in snapshot.popular[:SHELF_COUNT]]
        self.newest = [card_for(item, now=now) for item in snapshot.newest[:SHELF_COUNT]]
        # 完結 picks: the most read completed series (by the status column: no item built to be skipped).
        catalogue, done = snapshot.popular.catalogue, STATUSES.index("completed")
        picks = islice((index for index in snapshot.popular.ids if catalogue.status[index] == done), SHELF_COUNT)
        self.completed = [card_for(catalogue.item(index), now=now) for index in picks]
        self.genres = [genre_chip(genre.name, genre.total) for genre in snapshot.genres[:GENRE_CHIPS]]
        self.loaded = True
