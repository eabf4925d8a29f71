"""What a genre's page shows: one pure function for both the page's state
(pages/genre_state.GenreState) and the server's first paint of the page
(web/first_paint.py). No framework imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode

from manga_app import routes
from manga_app.search import ranking
from manga_app.search.index import Query
from manga_app.search.paging import PER_PAGE, parse_page
from manga_app.state.browse import Card, PageLink, TabLink, card_for, pager_links


@dataclass
class GenrePage:
    """Field for field what GenreState shows once loaded."""

    name: str = ""
    total: int = 0
    cards: list[Card] = field(default_factory=list)
    sort_links: list[TabLink] = field(default_factory=list)
    pager: list[PageLink] = field(default_factory=list)
    page: int = 1
    pages: int = 1


def genre_page_url(name: str, sort: str = "", page: int = 1) -> str:
    """routes.genre_url plus the grid's own query (defaults left out)."""
    pairs = [(key, str(value)) for key, value in (("sort", sort), ("page", page if page > 1 else "")) if value]
    return routes.genre_url(name) + (f"?{urlencode(pairs)}" if pairs else "")


def parse_genre_query(query_string: str) -> tuple[str, int]:
    """(sort, page) from the query string; anything unknown means the default."""
    values = dict(parse_qsl(query_string[:2000], errors="replace"))
    sort = values.get("sort", "")
    return (sort if sort in ranking.BROWSE_SORTS else ranking.UPDATED), parse_page(values.get("page"))


def genre_page(name: str, query_string: str, *, index: Any, now: datetime) -> GenrePage:
    """A known genre's page for its URL's query (`index`: the held search index)."""
    sort, page = parse_genre_query(query_string)
    result = index.search(Query(genres=(name,), sort=sort, page=page, per_page=PER_PAGE), [])
    kept_sort = sort if sort != ranking.UPDATED else ""
    return GenrePage(
        name=name,
        total=result.total,
        cards=[card_for(item, now=now) for item in result.items],
        sort_links=[
            TabLink(label=ranking.SORT_LABELS[option], href=genre_page_url(name, option if option != ranking.UPDATED else ""), current=option == sort)
            for option in ranking.BROWSE_SORTS
        ],
        pager=pager_links(result.page, result.pages, lambda number: genre_page_url(name, kept_sort, number)),
        page=result.page,
        pages=result.pages,
    )
