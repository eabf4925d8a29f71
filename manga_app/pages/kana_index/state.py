"""One row of the 五十音 index: a paged grid in 五十音順, from the held
search index (its row sets and タイトル順), like a genre's page."""

from __future__ import annotations

import reflex as rx

from manga_app.core import gojuon
from manga_app.core.routes import PageKind
from manga_app.pages.kana_index import logic
from manga_app.search import ranking
from manga_app.search.held_index import current_index
from manga_app.search.paging import PER_PAGE
from manga_app.search.query import Query
from manga_app.ui.listing_state import ListingState


class KanaRowState(ListingState, rx.State):
    row: str = ""

    @rx.var
    def heading(self) -> str:
        return logic.heading(self.row)

    @rx.event
    async def load(self):
        self.row = row = self._path_param(PageKind.KANA_ROW, "row")
        _, index = await current_index()
        self.tabs = logic.row_tabs(row, index.row_counts())
        if row not in gojuon.SITE_ROWS:
            self._show_none()
            return
        page = logic.parse_row_query(self.router.url.query or "")
        result = index.search(Query(row=row, sort=ranking.TITLE, page=page, per_page=PER_PAGE), [])
        self._show(result, logic.pager(row, result.page, result.pages))
