"""What a listing page shows (genre, author, tag, a 五十音 row): one page of a
set of series as cards, the tabs above them (sorts or rows) and the pager
below. A state mixin: each page's state adds its name and heading and fills
this from its own query (ui/listing.py draws it)."""

from __future__ import annotations

from typing import ClassVar

import reflex as rx

from manga_app.cards.records import Card, PageLink, TabLink, card_for
from manga_app.core import routes
from manga_app.core.clock import page_now
from manga_app.core.routes import PageKind
from manga_app.search.query import Result


class ListingState(rx.State, mixin=True):
    page_content: ClassVar[bool] = True  # the same for every visitor, all from on_load (platform/page_content.py)
    total: int = 0
    cards: list[Card] = []
    tabs: list[TabLink] = []
    pager: list[PageLink] = []
    page: int = 1
    pages: int = 1
    loaded: bool = False

    def _path_param(self, kind: PageKind, key: str) -> str:
        """The path's `key` ("name", "row") when it is a `kind` page, else ""."""
        found = routes.match(self.router.url.path or "/")
        return found.params.get(key, "") if found and found.kind is kind else ""

    def _show_none(self) -> None:
        """An unknown name or row (the server answered 404; a client-side
        navigation gets the layout's not-found panel): no grid, never loading."""
        self.cards, self.pager, self.total, self.loaded = [], [], 0, True

    def _show(self, result: Result, pager: list[PageLink]) -> None:
        now = page_now()
        self.total, self.page, self.pages = result.total, result.page, result.pages
        self.cards = [card_for(item, now=now) for item in result.items]
        self.pager = pager
        self.loaded = True
