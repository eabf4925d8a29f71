"""The parts of the search page for a search (state.SearchState):
its links, chips and suggestions. No framework imports."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from manga_app.core import routes
from manga_app.search import ranking
from manga_app.search.index import STATUSES
from manga_app.search.normalize import query_terms
from manga_app.search.query import Query
from manga_app.search.suggest import near_titles
from manga_app.core.display import STATUS_LABELS
from manga_app.cards.records import Card, Chip, PageLink, TabLink, card_for, pager_links

# Genres offered as chips (the most common; chosen ones are always shown).
CHIP_GENRES = 40
SUGGESTIONS = 5
DEFAULT_HEADING = "作品を探す"


def search_url(params: Query) -> str:
    return routes.search_url(**params.url_params())


def cycle_genre(params: Query, genre: str) -> Query:
    """The chip's next state: off -> 含む -> 除く -> off."""
    if genre in params.genres:
        return params.with_changes(genres=tuple(g for g in params.genres if g != genre), exclude=(*params.exclude, genre))
    if genre in params.exclude:
        return params.with_changes(exclude=tuple(g for g in params.exclude if g != genre))
    return params.with_changes(genres=(*params.genres, genre))


def heading(params: Query) -> str:
    return f"「{params.q}」の検索結果" if params.q else DEFAULT_HEADING


def past_the_end_notice(asked: int, shown: int) -> str:
    return f"{asked}ページ目はありません。最後のページを表示しています。" if asked > shown else ""


def suggestions(params: Query, *, snapshot: Any, index: Any, now: datetime) -> tuple[list[Card], str]:
    """For a search that found nothing: titles near what was typed, else the
    popular ones, and the heading over them."""
    terms = query_terms(params.q)
    near = near_titles(index, terms, SUGGESTIONS) if terms else []
    fallback = near or list(snapshot.popular[:SUGGESTIONS])
    return [card_for(item, now=now) for item in fallback], "もしかして" if near else "人気の作品"


def pager(params: Query, page: int, pages: int) -> list[PageLink]:
    shown = params.with_changes(page=page)
    return pager_links(page, pages, lambda number: search_url(shown.with_changes(page=number)))


def sort_links(params: Query, current: str) -> list[TabLink]:
    sorts = [option for option in ranking.SORT_LABELS if option != ranking.RELEVANCE or params.q]
    return [
        TabLink(ranking.SORT_LABELS[option], search_url(params.with_changes(sort=option)), option == current)
        for option in sorts
    ]


def status_links(params: Query) -> list[TabLink]:
    return [TabLink("すべて", search_url(params.with_changes(status="")), not params.status)] + [
        TabLink(STATUS_LABELS[status], search_url(params.with_changes(status=status)), params.status == status)
        for status in STATUSES
    ]


def genre_chips(params: Query, genres: Any) -> list[Chip]:
    """The most common genres (`genres`: the catalogue's, most common first),
    and every genre the search names."""
    chosen = set(params.genres) | set(params.exclude)
    names = [genre.name for genre in genres[:CHIP_GENRES]]
    names += [name for name in chosen if name not in names]
    return [
        Chip(
            label=name,
            href=search_url(cycle_genre(params, name)),
            mode="include" if name in params.genres else "exclude" if name in params.exclude else "",
        )
        for name in names
    ]
