"""One genre's titles: a paged grid, sortable (`?sort=&page=` in the URL)."""

from __future__ import annotations

from datetime import UTC, datetime

import reflex as rx

from manga_app.pages.genre import logic
from manga_app.core import routes
from manga_app.search.query import Query
from manga_app.search.paging import PER_PAGE
from manga_app.cards.records import Card, PageLink, Part, TabLink, card_for, phrase_parts
from manga_app.search.held_index import current_index


class GenreState(rx.State):
    name: str = ""
    total: int = 0
    cards: list[Card] = []
    sort_links: list[TabLink] = []
    pager: list[PageLink] = []
    page: int = 1
    pages: int = 1
    loaded: bool = False

    @rx.var
    def heading_parts(self) -> list[Part]:
        return phrase_parts(logic.heading(self.name))

    @rx.event
    async def load(self):
        found = routes.match(self.router.url.path or "/")
        name = found.params.get("name", "") if found and found.kind is routes.PageKind.GENRE else ""
        snapshot, index = await current_index()
        self.loaded = False
        if not any(genre.name == name for genre in snapshot.genres):
            # Unknown here (a client-side navigation the layout answers with its
            # not-found panel), or not in the index yet: never "loading" for good.
            self.name, self.cards, self.pager, self.sort_links, self.total = name, [], [], [], 0
            self.loaded = True
            return
        sort, page = logic.parse_genre_query(self.router.url.query or "")
        result = index.search(Query(genres=(name,), sort=sort, page=page, per_page=PER_PAGE), [])
        now = datetime.now(UTC)
        self.name, self.total, self.page, self.pages = name, result.total, result.page, result.pages
        self.cards = [card_for(item, now=now) for item in result.items]
        self.sort_links = logic.sort_links(name, sort)
        self.pager = logic.pager(name, sort, result.page, result.pages)
        self.loaded = True
