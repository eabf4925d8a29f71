"""The ranking page's data: one page of the held ranking (read_models/discovery.py)."""

from __future__ import annotations

from typing import ClassVar

import reflex as rx

from manga_app.core import discovery as rules
from manga_app.core.clock import page_now
from manga_app.pages.ranking import logic
from manga_app.read_models import discovery
from manga_app.read_models.held import held_catalogue
from manga_app.cards.records import PageLink, RankCard, TabLink, rank_card_for


class RankingState(rx.State):
    page_content: ClassVar[bool] = True  # the same for every visitor, all from on_load (platform/page_content.py)
    period_label: str = rules.PERIOD_LABELS[rules.DAY]
    genre: str = ""
    rows: list[RankCard] = []
    period_tabs: list[TabLink] = []
    genre_tabs: list[TabLink] = []
    pager: list[PageLink] = []
    total: int = 0
    page: int = 1
    pages: int = 1
    loaded: bool = False
    counting: bool = False  # the first board is being computed (集計中)

    @rx.event
    async def load(self):
        query = rules.parse_ranking_query(self.router.url.query or "")
        board = await discovery.held_board().board()
        self.genre, self.period_label = query.genre, rules.PERIOD_LABELS[query.period]
        self.counting = board.pending
        self.period_tabs = logic.period_tabs(query)
        if query.genre and not discovery.known_genre(board, query.genre, await held_catalogue().snapshot()):
            # The head makes this a 404 (heads/resolve.py); nothing to list.
            self.rows, self.genre_tabs, self.pager, self.total, self.loaded = [], [], [], 0, True
            return
        listing = discovery.ranking_listing(board, query.period, query.genre, query.page, rules.RANKING_PER_PAGE)
        now = page_now()
        self.rows = [rank_card_for(item, ranked, now=now) for item, ranked in listing.items]
        self.genre_tabs = logic.genre_tabs(query, [genre.name for genre in board.snapshot.genres])
        self.pager = logic.pager(query, listing.page, listing.pages)
        self.total, self.page, self.pages = listing.total, listing.page, listing.pages
        self.loaded = True
