"""The home page's data: a few rows of the held catalogue's orderings."""

from __future__ import annotations

from datetime import UTC, datetime

import reflex as rx

from manga_app.read_models.held import held_catalogue
from manga_app.ui.records import Card, Chip, card_for, genre_chip

LATEST_COUNT = 10
SHELF_COUNT = 12
GENRE_CHIPS = 20


class HomeState(rx.State):
    latest: list[Card] = []
    popular: list[Card] = []
    newest: list[Card] = []
    genres: list[Chip] = []
    loaded: bool = False

    @rx.event
    async def load(self):
        snapshot = await held_catalogue().snapshot()
        now = datetime.now(UTC)
        self.latest = [card_for(item, now=now) for item in snapshot.latest[:LATEST_COUNT]]
        self.popular = [card_for(item, now=now) for item in snapshot.popular[:SHELF_COUNT]]
        self.newest = [card_for(item, now=now) for item in snapshot.newest[:SHELF_COUNT]]
        self.genres = [genre_chip(genre.name, genre.total) for genre in snapshot.genres[:GENRE_CHIPS]]
        self.loaded = True
