"""The parts of a page listing a set of series like a genre's (genre, author,
tag): its URL's query, sort links and pager. No framework imports."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from manga_app.core import routes
from manga_app.search import ranking
from manga_app.search.paging import parse_page
from manga_app.cards.records import PageLink, TabLink, pager_links


def listing_url(base: str, sort: str = "", page: int = 1) -> str:
    """The listing's path `base` plus its own query (defaults left out)."""
    pairs = [(key, str(value)) for key, value in (("sort", sort), ("page", page if page > 1 else "")) if value]
    return base + (f"?{urlencode(pairs)}" if pairs else "")


def genre_page_url(name: str, sort: str = "", page: int = 1) -> str:
    """routes.genre_url plus the grid's own query (defaults left out)."""
    return listing_url(routes.genre_url(name), sort, page)


def parse_genre_query(query_string: str) -> tuple[str, int]:
    """(sort, page) from the query string; anything unknown means the default."""
    values = dict(parse_qsl(query_string[:2000], errors="replace"))
    sort = values.get("sort", "")
    return (sort if sort in ranking.BROWSE_SORTS else ranking.UPDATED), parse_page(values.get("page"))


def listing_sort_links(base: str, current: str) -> list[TabLink]:
    return [
        TabLink(
            label=ranking.SORT_LABELS[option],
            href=listing_url(base, option if option != ranking.UPDATED else ""),
            current=option == current,
        )
        for option in ranking.BROWSE_SORTS
    ]


def listing_pager(base: str, sort: str, page: int, pages: int) -> list[PageLink]:
    kept_sort = sort if sort != ranking.UPDATED else ""
    return pager_links(page, pages, lambda number: listing_url(base, kept_sort, number))


def sort_links(name: str, current: str) -> list[TabLink]:
    return listing_sort_links(routes.genre_url(name), current)


def pager(name: str, sort: str, page: int, pages: int) -> list[PageLink]:
    return listing_pager(routes.genre_url(name), sort, page, pages)


def heading(name: str) -> str:
    """The page's h1: 「ファンタジーの漫画」, or ジャンル while the name is unknown."""
    return f"{name}の漫画" if name else "ジャンル"
