"""The parts of a genre's page (state.GenreState): its URL's
query, sort links and pager. No framework imports."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from manga_app.core import routes
from manga_app.search import ranking
from manga_app.search.paging import parse_page
from manga_app.ui.records import PageLink, TabLink, pager_links


def genre_page_url(name: str, sort: str = "", page: int = 1) -> str:
    """routes.genre_url plus the grid's own query (defaults left out)."""
    pairs = [(key, str(value)) for key, value in (("sort", sort), ("page", page if page > 1 else "")) if value]
    return routes.genre_url(name) + (f"?{urlencode(pairs)}" if pairs else "")


def parse_genre_query(query_string: str) -> tuple[str, int]:
    """(sort, page) from the query string; anything unknown means the default."""
    values = dict(parse_qsl(query_string[:2000], errors="replace"))
    sort = values.get("sort", "")
    return (sort if sort in ranking.BROWSE_SORTS else ranking.UPDATED), parse_page(values.get("page"))


def sort_links(name: str, current: str) -> list[TabLink]:
    return [
        TabLink(
            label=ranking.SORT_LABELS[option],
            href=genre_page_url(name, option if option != ranking.UPDATED else ""),
            current=option == current,
        )
        for option in ranking.BROWSE_SORTS
    ]


def pager(name: str, sort: str, page: int, pages: int) -> list[PageLink]:
    kept_sort = sort if sort != ranking.UPDATED else ""
    return pager_links(page, pages, lambda number: genre_page_url(name, kept_sort, number))


def heading(name: str) -> str:
    """The page's h1: 「ファンタジーの漫画」, or ジャンル while the name is unknown."""
    return f"{name}の漫画" if name else "ジャンル"
