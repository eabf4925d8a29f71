"""One genre's titles: a paged grid, sortable (`?sort=&page=` in the URL)."""

from __future__ import annotations

from datetime import UTC, datetime

import reflex as rx

from manga_app import routes
from manga_app.genre_page import genre_page
from manga_app.state.browse import Card, PageLink, TabLink
from manga_app.state.search_index import current_index


class GenreState(rx.State):
    name: str = ""
    total: int = 0
    cards: list[Card] = []
    sort_links: list[TabLink] = []
    pager: list[PageLink] = []
    page: int = 1
    pages: int = 1
    loaded: bool = False

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
        for field, value in vars(genre_page(name, self.router.url.query or "", index=index, now=datetime.now(UTC))).items():
            setattr(self, field, value)
        self.loaded = True
