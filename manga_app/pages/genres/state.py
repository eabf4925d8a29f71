"""The genre list's state: every genre of the held catalogue, as chips."""

import reflex as rx

from manga_app.read_models.held import held_catalogue
from manga_app.ui.records import Chip, genre_chip


class GenresState(rx.State):
    genres: list[Chip] = []
    loaded: bool = False

    @rx.event
    async def load(self):
        # The held list already follows the spec's rule: named, total > 0.
        snapshot = await held_catalogue().snapshot()
        self.genres = [genre_chip(genre.name, genre.total) for genre in snapshot.genres]
        self.loaded = True
