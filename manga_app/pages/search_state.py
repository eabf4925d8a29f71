"""The search page's state. The URL is the source of truth: on_load parses
it; typing searches (throttled) and replaces the URL's query in place;
filters, sorts and pages are links, so each is a history entry."""

from __future__ import annotations

import json
from collections import OrderedDict
from datetime import UTC, datetime

import reflex as rx

from manga_app import routes
from manga_app.display import Throttle
from manga_app.search import ranking
from manga_app.search.index import STATUSES
from manga_app.search.normalize import clean_query, query_terms
from manga_app.search.paging import PER_PAGE
from manga_app.search.params import SearchParams, parse_search_params
from manga_app.search.suggest import near_titles
from manga_app.state.browse import STATUS_LABELS, Card, Chip, PageLink, TabLink, card_for, pager_links
from manga_app.state.search_index import current_index

# At most one search per visitor per interval while typing; a keystroke in
# between is searched when the interval ends (see `flush`).
TYPING_INTERVAL = 0.25
_MAX_TRACKED = 10_000
_throttles: OrderedDict[str, Throttle] = OrderedDict()
# Genres offered as chips (the most common; chosen ones are always shown).
CHIP_GENRES = 40
SUGGESTIONS = 5


def _throttle_for(token: str) -> Throttle:
    throttle = _throttles.pop(token, None) or Throttle(TYPING_INTERVAL)
    _throttles[token] = throttle
    while len(_throttles) > _MAX_TRACKED:
        _throttles.popitem(last=False)
    return throttle


def _url(params: SearchParams) -> str:
    return routes.search_url(**params.url_params())


def _cycle(params: SearchParams, genre: str) -> SearchParams:
    """The chip's next state: off -> 含む -> 除く -> off."""
    if genre in params.genres:
        return params.with_changes(genres=tuple(g for g in params.genres if g != genre), exclude=(*params.exclude, genre))
    if genre in params.exclude:
        return params.with_changes(exclude=tuple(g for g in params.exclude if g != genre))
    return params.with_changes(genres=(*params.genres, genre))


class SearchState(rx.State):
    query: str = ""
    # Changing it remounts the (uncontrolled) input with the URL's query.
    input_key: int = 0
    heading: str = "作品を探す"
    total: int = 0
    cards: list[Card] = []
    suggestions: list[Card] = []
    suggestion_title: str = ""
    notice: str = ""
    sort_links: list[TabLink] = []
    status_links: list[TabLink] = []
    genre_chips: list[Chip] = []
    pager: list[PageLink] = []
    loaded: bool = False
    _params: SearchParams = SearchParams()
    _pending: bool = False

    @rx.event
    async def load(self):
        snapshot, _ = await current_index()
        known = frozenset(genre.name for genre in snapshot.genres)
        params = parse_search_params(self.router.url.query or "", known_genres=known)
        if params.q != self.query:
            self.query = params.q
            self.input_key += 1
        await self._run(params)

    @rx.event
    async def type_query(self, value: str):
        """as-you-type: search now, or once the throttle interval is over."""
        self.query = clean_query(value)
        if not _throttle_for(self.router.session.client_token).allow():
            if not self._pending:
                self._pending = True
                wait = f"new Promise((done) => setTimeout(done, {int(TYPING_INTERVAL * 1000)}))"
                return rx.call_script(wait, callback=SearchState.flush)
            return None
        return await self._search_typed()

    @rx.event
    async def flush(self, _result=None):
        if self._pending:
            self._pending = False
            return await self._search_typed()
        return None

    @rx.event
    async def submit(self, form: dict):
        self.query = clean_query(str(form.get("q", "")))
        return await self._search_typed()

    async def _search_typed(self):
        params = self._params.with_changes(q=self.query)
        await self._run(params)
        # Same history entry: typing is not a navigation; filters are.
        return rx.call_script(f"window.history.replaceState(window.history.state, '', {json.dumps(_url(params))})")

    async def _run(self, params: SearchParams) -> None:
        snapshot, index = await current_index()
        terms = query_terms(params.q)
        result = index.search(params.to_query(PER_PAGE), terms)
        now = datetime.now(UTC)
        self._params = params
        self.total = result.total
        self.cards = [card_for(item, now=now, terms=terms) for item in result.items]
        self.heading = f"「{params.q}」の検索結果" if params.q else "作品を探す"
        self.notice = f"{params.page}ページ目はありません。最後のページを表示しています。" if params.page > result.page else ""
        self.suggestions, self.suggestion_title = [], ""
        if result.total == 0:
            near = near_titles(index, terms, SUGGESTIONS) if terms else []
            fallback = near or list(snapshot.popular[:SUGGESTIONS])
            self.suggestions = [card_for(item, now=now) for item in fallback]
            self.suggestion_title = "もしかして" if near else "人気の作品"
        shown = params.with_changes(page=result.page)
        self.pager = pager_links(result.page, result.pages, lambda number: _url(shown.with_changes(page=number)))
        self._links(params, result.sort, snapshot.genres)
        self.loaded = True

    def _links(self, params: SearchParams, sort: str, genres) -> None:
        sorts = [option for option in ranking.SORT_LABELS if option != ranking.RELEVANCE or params.q]
        self.sort_links = [
            TabLink(ranking.SORT_LABELS[option], _url(params.with_changes(sort=option)), option == sort) for option in sorts
        ]
        self.status_links = [TabLink("すべて", _url(params.with_changes(status="")), not params.status)] + [
            TabLink(STATUS_LABELS[status], _url(params.with_changes(status=status)), params.status == status)
            for status in STATUSES
        ]
        chosen = set(params.genres) | set(params.exclude)
        names = [genre.name for genre in genres[:CHIP_GENRES]]
        names += [name for name in chosen if name not in names]
        self.genre_chips = [
            Chip(
                label=name,
                href=_url(_cycle(params, name)),
                mode="include" if name in params.genres else "exclude" if name in params.exclude else "",
            )
            for name in names
        ]
