"""One genre's titles: a paged grid, sortable (`?sort=&page=` in the URL)."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlencode

import reflex as rx

from manga_app import routes
from manga_app.search import ranking
from manga_app.search.index import Query
from manga_app.search.paging import PER_PAGE, parse_page
from manga_app.state.browse import Card, PageLink, TabLink, card_for, pager_links
from manga_app.state.search_index import current_index


def genre_page_url(name: str, sort: str = "", page: int = 1) -> str:
    """routes.genre_url plus the grid's own query (defaults left out)."""
    pairs = [(key, str(value)) for key, value in (("sort", sort), ("page", page if page > 1 else "")) if value]
    return routes.genre_url(name) + (f"?{urlencode(pairs)}" if pairs else "")


def parse_genre_query(query_string: str) -> tuple[str, int]:
    """(sort, page) from the query string; anything unknown means the default."""
    values = dict(parse_qsl(query_string[:2000], errors="replace"))
    sort = values.get("sort", "")
    return (sort if sort in ranking.BROWSE_SORTS else ranking.UPDATED), parse_page(values.get("page"))


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
        sort, page = parse_genre_query(self.router.url.query or "")
        snapshot, index = await current_index()
        self.loaded = False
        if not any(genre.name == name for genre in snapshot.genres):
            # Unknown here (a client-side navigation the layout answers with its
            # not-found panel), or not in the index yet: never "loading" for good.
            self.name, self.cards, self.pager, self.sort_links, self.total = name, [], [], [], 0
            self.loaded = True
            return
        result = index.search(Query(genres=(name,), sort=sort, page=page, per_page=PER_PAGE), [])
        now = datetime.now(UTC)
        self.name = name
        self.total = result.total
        self.page, self.pages = result.page, result.pages
        self.cards = [card_for(item, now=now) for item in result.items]
        self.sort_links = [
            TabLink(label=ranking.SORT_LABELS[option], href=genre_page_url(name, option if option != ranking.UPDATED else ""), current=option == sort)
            for option in ranking.BROWSE_SORTS
        ]
        self.pager = pager_links(result.page, result.pages, lambda number: genre_page_url(name, sort if sort != ranking.UPDATED else "", number))
        self.loaded = True
