"""What the search page shows for a search: one pure function for both the
page's state (pages/search_state.SearchState) and the server's first paint
of the page (web/first_paint.py), so the two can never show different
results. No framework imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from manga_app import routes
from manga_app.search import ranking
from manga_app.search.index import STATUSES
from manga_app.search.normalize import query_terms
from manga_app.search.paging import PER_PAGE
from manga_app.search.params import SearchParams
from manga_app.search.suggest import near_titles
from manga_app.state.browse import STATUS_LABELS, Card, Chip, PageLink, TabLink, card_for, pager_links

# Genres offered as chips (the most common; chosen ones are always shown).
CHIP_GENRES = 40
SUGGESTIONS = 5
DEFAULT_HEADING = "作品を探す"


@dataclass
class SearchPage:
    """Field for field what SearchState shows once a search has run."""

    heading: str = DEFAULT_HEADING
    total: int = 0
    cards: list[Card] = field(default_factory=list)
    suggestions: list[Card] = field(default_factory=list)
    suggestion_title: str = ""
    notice: str = ""
    sort_links: list[TabLink] = field(default_factory=list)
    status_links: list[TabLink] = field(default_factory=list)
    genre_chips: list[Chip] = field(default_factory=list)
    pager: list[PageLink] = field(default_factory=list)


def search_url(params: SearchParams) -> str:
    return routes.search_url(**params.url_params())


def cycle_genre(params: SearchParams, genre: str) -> SearchParams:
    """The chip's next state: off -> 含む -> 除く -> off."""
    if genre in params.genres:
        return params.with_changes(genres=tuple(g for g in params.genres if g != genre), exclude=(*params.exclude, genre))
    if genre in params.exclude:
        return params.with_changes(exclude=tuple(g for g in params.exclude if g != genre))
    return params.with_changes(genres=(*params.genres, genre))


def search_page(params: SearchParams, *, snapshot: Any, index: Any, now: datetime) -> SearchPage:
    """`snapshot` and `index`: the held catalogue and its search index
    (state/search_index.current_index)."""
    terms = query_terms(params.q)
    result = index.search(params.to_query(PER_PAGE), terms)
    page = SearchPage(
        heading=f"「{params.q}」の検索結果" if params.q else DEFAULT_HEADING,
        total=result.total,
        cards=[card_for(item, now=now, terms=terms) for item in result.items],
        notice=f"{params.page}ページ目はありません。最後のページを表示しています。" if params.page > result.page else "",
    )
    if result.total == 0:
        near = near_titles(index, terms, SUGGESTIONS) if terms else []
        fallback = near or list(snapshot.popular[:SUGGESTIONS])
        page.suggestions = [card_for(item, now=now) for item in fallback]
        page.suggestion_title = "もしかして" if near else "人気の作品"
    shown = params.with_changes(page=result.page)
    page.pager = pager_links(result.page, result.pages, lambda number: search_url(shown.with_changes(page=number)))
    sorts = [option for option in ranking.SORT_LABELS if option != ranking.RELEVANCE or params.q]
    page.sort_links = [
        TabLink(ranking.SORT_LABELS[option], search_url(params.with_changes(sort=option)), option == result.sort)
        for option in sorts
    ]
    page.status_links = [TabLink("すべて", search_url(params.with_changes(status="")), not params.status)] + [
        TabLink(STATUS_LABELS[status], search_url(params.with_changes(status=status)), params.status == status)
        for status in STATUSES
    ]
    chosen = set(params.genres) | set(params.exclude)
    names = [genre.name for genre in snapshot.genres[:CHIP_GENRES]]
    names += [name for name in chosen if name not in names]
    page.genre_chips = [
        Chip(
            label=name,
            href=search_url(cycle_genre(params, name)),
            mode="include" if name in params.genres else "exclude" if name in params.exclude else "",
        )
        for name in names
    ]
    return page
