"""One genre's titles: a paged grid, sortable (`?sort=&page=` in the URL)."""

from __future__ import annotations

import reflex as rx

from manga_app.cards.records import Part, phrase_parts
from manga_app.core.routes import PageKind
from manga_app.pages.genre import logic
from manga_app.search.held_index import current_index
from manga_app.search.paging import PER_PAGE
from manga_app.search.query import Query
from manga_app.ui.listing_state import ListingState


class GenreState(ListingState, rx.State):
    name: str = ""

    @rx.var
    def heading(self) -> list[Part]:
        return phrase_parts(logic.heading(self.name))

    @rx.event
    async def load(self):
        self.name = name = self._path_param(PageKind.GENRE, "name")
        snapshot, index = await current_index()
        if not any(genre.name == name for genre in snapshot.genres):
            # Unknown here, or not in the index yet: never "loading" for good.
            self.tabs = []
            self._show_none()
            return
        sort, page = logic.parse_genre_query(self.router.url.query or "")
        result = index.search(Query(genres=(name,), sort=sort, page=page, per_page=PER_PAGE), [])
        self.tabs = logic.sort_links(name, sort)
        self._show(result, logic.pager(name, sort, result.page, result.pages))
