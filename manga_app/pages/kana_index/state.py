"""One row of the 五十音 index: a paged grid in 五十音順, from the held
search index (its row sets and タイトル順), like a genre's page."""

from __future__ import annotations

from datetime import UTC, datetime

import reflex as rx

from manga_app.core import gojuon, routes
from manga_app.pages.kana_index import logic
from manga_app.search import ranking
from manga_app.search.held_index import current_index
from manga_app.search.paging import PER_PAGE
from manga_app.search.query import Query
from manga_app.cards.records import Card, PageLink, TabLink, card_for


class KanaRowState(rx.State):
    row: str = ""
    total: int = 0
    cards: list[Card] = []
    row_tabs: list[TabLink] = []
    pager: list[PageLink] = []
    page: int = 1
    pages: int = 1
    loaded: bool = False

    @rx.var
    def heading(self) -> str:
        return logic.heading(self.row)

    @rx.event
    async def load(self):
        found = routes.match(self.router.url.path or "/")
        row = found.params.get("row", "") if found and found.kind is routes.PageKind.KANA_ROW else ""
        _, index = await current_index()
        counts = index.row_counts()
        self.row = row
        self.row_tabs = logic.row_tabs(row, counts)
        if row not in gojuon.SITE_ROWS:
            # An unknown row (the server answers it with a 404): no grid.
            self.cards, self.pager, self.total, self.loaded = [], [], 0, True
            return
        page = logic.parse_row_query(self.router.url.query or "")
        result = index.search(Query(row=row, sort=ranking.TITLE, page=page, per_page=PER_PAGE), [])
        now = datetime.now(UTC)
        self.total, self.page, self.pages = result.total, result.page, result.pages
        self.cards = [card_for(item, now=now) for item in result.items]
        self.pager = logic.pager(row, result.page, result.pages)
        self.loaded = True
