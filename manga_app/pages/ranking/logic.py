"""The ranking page's tabs and pager (its query: core/discovery.py). No framework imports."""

from __future__ import annotations

from manga_app.core import discovery, routes
from manga_app.core.discovery import RankingQuery
from manga_app.cards.records import PageLink, TabLink, pager_links

GENRE_TABS = 12


def _url(period: str, genre: str, page: int = 1) -> str:
    return routes.ranking_url("" if period == discovery.DAY else period, genre, page)


def period_tabs(query: RankingQuery) -> list[TabLink]:
    return [TabLink(label=discovery.PERIOD_LABELS[period], href=_url(period, query.genre), current=period == query.period)
            for period in discovery.PERIODS]


def genre_tabs(query: RankingQuery, genres: list[str]) -> list[TabLink]:
    """すべて, then the largest genres (and the chosen one, wherever it is)."""
    shown = genres[:GENRE_TABS] + ([query.genre] if query.genre and query.genre not in genres[:GENRE_TABS] else [])
    return [TabLink(label="すべて", href=_url(query.period, ""), current=not query.genre)] + [
        TabLink(label=name, href=_url(query.period, name), current=name == query.genre) for name in shown
    ]


def pager(query: RankingQuery, page: int, pages: int) -> list[PageLink]:
    return pager_links(page, pages, lambda number: _url(query.period, query.genre, number))
