"""The search page's state. The URL is the source of truth: on_load parses
it; typing searches (throttled) and replaces the URL's query in place;
filters, sorts and pages are links, so each is a history entry."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from typing import ClassVar

import reflex as rx

from manga_app.pages.search import logic
from manga_app.visitor.client_commands import client_command, later
from manga_app.core.display import Throttle
from manga_app.core.clock import page_now
from manga_app.search.normalize import clean_query, query_terms
from manga_app.search.paging import PER_PAGE
from manga_app.search.params import parse_search_params
from manga_app.search.query import Query
from manga_app.pages.search.logic import search_url
from manga_app.cards.records import Card, Chip, PageLink, Part, TabLink, card_for, phrase_parts
from manga_app.search.held_index import current_index

# At most one search per visitor per interval while typing; a keystroke in
# between is searched when the interval ends (see `flush`).
TYPING_INTERVAL = 0.25
_MAX_TRACKED = 10_000
_throttles: OrderedDict[str, Throttle] = OrderedDict()


def _throttle_for(token: str) -> Throttle:
    throttle = _throttles.pop(token, None) or Throttle(TYPING_INTERVAL)
    _throttles[token] = throttle
    while len(_throttles) > _MAX_TRACKED:
        _throttles.popitem(last=False)
    return throttle


class SearchState(rx.State):
    # The results are the URL's (platform/page_content.py): a search opened as
    # a page load in a tab that showed another never shows that one. The
    # typing bookkeeping below is reset with them, and that is right: the
    # reset runs at the page load's first hydrate, before any word typed on
    # the new page reaches the backend, and what was pending on the last page
    # is not this page's.
    page_content: ClassVar[bool] = True
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
    _params: Query = Query()
    _pending: bool = False
    # The path the visitor typed or searched on while its page's on_load was
    # still to come, until that load (see `_note_typed`).
    _typed_on: str = ""

    @rx.var
    def heading_parts(self) -> list[Part]:
        return phrase_parts(self.heading)

    def _note_typed(self) -> None:
        """The box and its form are in the server-rendered page, and the app
        sends what was typed (or submitted) as it connects: those events can
        reach the backend before the page's on_load, which runs after the
        hydrate (is_hydrated is False from the hydrate, or a navigation, to
        the end of its on_load). Words that reach it then are the page's own.
        Not the URL they were sent from: the first search replaces it."""
        if not self.is_hydrated:
            self._typed_on = self.router.url.path

    async def _url_params(self) -> Query:
        """The search the URL asks for (the one the event was sent from)."""
        snapshot, _ = await current_index()
        known = frozenset(genre.name for genre in snapshot.genres)
        return parse_search_params(self.router.url.query or "", known_genres=known)

    @rx.event
    async def load(self):
        params = await self._url_params()
        typed_here = self._typed_on == self.router.url.path and params.q != self.query
        self._typed_on = ""
        if typed_here:
            # The visitor typed or searched before the app had loaded the page:
            # their words win over the URL's.
            self._params = params
            return await self._search_typed()
        if params.q != self.query:
            self.query = params.q
            self.input_key += 1
        await self._run(params)
        return None

    @rx.event
    async def type_query(self, value: str):
        """as-you-type: search now, or once the throttle interval is over."""
        self.query = clean_query(value)
        self._note_typed()
        if not _throttle_for(self.router.session.client_token).allow():
            if not self._pending:
                self._pending = True
                return later(TYPING_INTERVAL, SearchState.flush)
            return None
        return await self._search_typed()

    @rx.event
    async def typed_before_start(self, value: object = ""):
        """What the visitor typed into the server-rendered box before the app
        had started (no change event reached the app for it). An empty box
        is not a search: after a client-side navigation the box mounts empty
        while the page's on_load may already have run with the URL's words
        (arriving from the not-found page's box), and they must stay.

        The first HTML's box holds the URL's words, and this event can reach
        the backend before the page's on_load: words equal to the URL's are
        not typed. Were they taken for typing, the search would replace the
        URL with one that has lost its sort and filters. Words typed before
        that load search within the URL's sort and filters."""
        typed = clean_query(value) if isinstance(value, str) else ""
        if not typed or typed == self.query:
            return None
        if not self.is_hydrated:
            self._params = await self._url_params()
            if typed == self._params.q:
                return None
        return await self.type_query(value)

    @rx.event
    async def flush(self, _result=None):
        if self._pending:
            self._pending = False
            return await self._search_typed()
        return None

    @rx.event
    async def submit(self, form: dict):
        self.query = clean_query(str(form.get("q", "")))
        self._note_typed()
        return await self._search_typed()

    async def _search_typed(self):
        params = self._params.with_changes(q=self.query)
        await self._run(params)
        # Same history entry: typing is not a navigation; filters are.
        return client_command("replace_url", search_url(params))

    async def _run(self, params: Query) -> None:
        snapshot, index = await current_index()
        self._params, now = params, page_now()
        terms = query_terms(params.q)
        result = index.search(replace(params, per_page=PER_PAGE), terms)
        self.heading, self.total = logic.heading(params), result.total
        self.cards = [card_for(item, now=now, terms=terms) for item in result.items]
        self.notice = logic.past_the_end_notice(params.page, result.page)
        found_none = result.total == 0
        self.suggestions, self.suggestion_title = (
            logic.suggestions(params, snapshot=snapshot, index=index, now=now) if found_none else ([], "")
        )
        self.pager = logic.pager(params, result.page, result.pages)
        self.sort_links = logic.sort_links(params, result.sort)
        self.status_links = logic.status_links(params)
        self.genre_chips = logic.genre_chips(params, snapshot.genres)
        self.loaded = True
