"""The author and tag pages' state: one name's series, a paged grid sortable
like a genre's (`?sort=&page=` in the URL)."""

from __future__ import annotations

import reflex as rx

from manga_app.cards.records import Part, phrase_parts
from manga_app.core.routes import PageKind
from manga_app.pages.author import logic
from manga_app.pages.genre.logic import listing_pager, listing_sort_links, parse_genre_query
from manga_app.search.held_index import current_index
from manga_app.search.paging import PER_PAGE
from manga_app.ui.listing_state import ListingState


class NamedListState(ListingState, mixin=True):
    """What the author and tag pages show; `kind` says which names they list."""

    name: str = ""
    heading: list[Part] = []

    async def _fill(self, kind: PageKind) -> None:
        name = self._path_param(kind, "name")
        _, index = await current_index()
        known = index.people if kind is PageKind.AUTHOR else index.tags
        self.name, self.heading = name, phrase_parts(logic.heading(kind, name))
        if name not in known:
            self.tabs = []
            self._show_none()
            return
        sort, page = parse_genre_query(self.router.url.query or "")
        result = index.search(logic.query_for(kind, name, sort, page, PER_PAGE), [])
        base = logic.URLS[kind](name)
        self.tabs = listing_sort_links(base, sort)
        self._show(result, listing_pager(base, sort, result.page, result.pages))


class AuthorState(NamedListState, rx.State):
    @rx.event
    async def load(self):
        await self._fill(PageKind.AUTHOR)


class TagState(NamedListState, rx.State):
    @rx.event
    async def load(self):
        await self._fill(PageKind.TAG)
