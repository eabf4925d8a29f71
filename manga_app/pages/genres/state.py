"""The genre list's state: every genre of the held catalogue, as chips."""

from typing import ClassVar

import reflex as rx

from manga_app.core import routes
from manga_app.read_models.held import held_catalogue
from manga_app.search.held_index import current_index
from manga_app.cards.records import Chip, genre_chip


class GenresState(rx.State):
    page_content: ClassVar[bool] = True  # the same for every visitor, all from on_load (platform/page_content.py)
    genres: list[Chip] = []
    kana_rows: list[Chip] = []  # the 五十音 index's rows, with their counts
    loaded: bool = False

    @rx.event
    async def load(self):
        # The held list already follows the spec's rule: named, total > 0.
        snapshot = await held_catalogue().snapshot()
        self.genres = [genre_chip(genre.name, genre.total) for genre in snapshot.genres]
        _, index = await current_index()
        self.kana_rows = [Chip(label=row, href=routes.kana_row_url(row), count=str(count))
                          for row, count in index.row_counts().items()]
        self.loaded = True
