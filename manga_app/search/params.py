"""The search page's URL (`?q=&genre=&exclude=&status=&sort=&page=`) parsed
strictly: whatever a visitor or a crawler sends becomes a valid query, never
an error. Pure module."""

from __future__ import annotations

from urllib.parse import parse_qsl

from manga_app.search import ranking
from manga_app.search.index import STATUSES
from manga_app.search.normalize import clean_query
from manga_app.search.paging import parse_page
from manga_app.search.query import Query

MAX_GENRES = 10
MAX_GENRE_CHARS = 50
# A longer query string is cut before parsing: nothing useful is that long.
MAX_QUERY_STRING = 8_000


def _genres(values: list[str], known: frozenset[str] | None) -> tuple[str, ...]:
    cleaned = (clean_query(value, MAX_GENRE_CHARS) for value in values)
    kept = (name for name in cleaned if name and (known is None or name in known))
    return tuple(dict.fromkeys(kept))[:MAX_GENRES]


def parse_search_params(query_string: str, *, known_genres: frozenset[str] | None = None) -> Query:
    """Parse a raw query string. Unknown genres (when `known_genres` is given),
    statuses and sorts are dropped; a genre both included and excluded is
    only included; the page is a positive number."""
    values: dict[str, list[str]] = {}
    for key, value in parse_qsl(str(query_string)[:MAX_QUERY_STRING], errors="replace"):
        values.setdefault(key, []).append(value)

    def last(key: str) -> str:
        return values.get(key, [""])[-1]

    genres = _genres(values.get("genre", []), known_genres)
    exclude = tuple(name for name in _genres(values.get("exclude", []), known_genres) if name not in genres)
    status = last("status") if last("status") in STATUSES else ""
    sort = last("sort") if last("sort") in ranking.SORT_LABELS else ""
    return Query(
        q=clean_query(last("q")), genres=genres, exclude=exclude, status=status, sort=sort, page=parse_page(last("page"))
    )
