"""The author and tag pages' state: one name's series, a paged grid sortable
like a genre's (`?sort=&page=` in the URL)."""

from __future__ import annotations

from datetime import UTC, datetime

import reflex as rx

from manga_app.core import routes
from manga_app.core.routes import PageKind
from manga_app.pages.author import logic
from manga_app.pages.genre.logic import listing_pager, listing_sort_links, parse_genre_query
from manga_app.search.held_index import current_index
from manga_app.search.paging import PER_PAGE
from manga_app.cards.records import Card, PageLink, Part, TabLink, card_for, phrase_parts


class NamedListState(rx.State, mixin=True):
    """What the author and tag pages show; `KIND` says which names they list."""

    name: str = ""
    heading: list[Part] = []
    total: int = 0
    cards: list[Card] = []
    sort_links: list[TabLink] = []
    pager: list[PageLink] = []
    page: int = 1
    pages: int = 1
    loaded: bool = False

    async def fill(self, kind: PageKind) -> None:
        found = routes.match(self.router.url.path or "/")
        name = found.params.get("name", "") if found and found.kind is kind else ""
        _, index = await current_index()
        known = index.people if kind is PageKind.AUTHOR else index.tags
        self.loaded = False
        if name not in known:
            # Unknown (the layout shows its not-found panel; the server answered 404).
            self.name, self.cards, self.pager, self.sort_links, self.total = name, [], [], [], 0
            self.heading = phrase_parts(logic.heading(kind, name))
            self.loaded = True
            return
        sort, page = parse_genre_query(self.router.url.query or "")
        result = index.search(logic.query_for(kind, name, sort, page, PER_PAGE), [])
        now = datetime.now(UTC)
        base = logic.URLS[kind](name)
        self.name, self.total, self.page, self.pages = name, result.total, result.page, result.pages
        self.heading = phrase_parts(logic.heading(kind, name))
        self.cards = [card_for(item, now=now) for item in result.items]
        self.sort_links = listing_sort_links(base, sort)
        self.pager = listing_pager(base, sort, result.page, result.pages)
        self.loaded = True


class AuthorState(NamedListState, rx.State):
    @rx.event
    async def load(self):
        await self.fill(PageKind.AUTHOR)


class TagState(NamedListState, rx.State):
    @rx.event
    async def load(self):
        await self.fill(PageKind.TAG)
