"""ジャンル一覧 `/genres`: every genre of the catalogue with its count."""

import reflex as rx

from manga_app.read_models.held import held_catalogue
from manga_app.ui.filters import genre_chips
from manga_app.ui.layout import site_layout
from manga_app.core.routes import PageKind
from manga_app.ui.records import Chip, genre_chip

KIND = PageKind.GENRES


class GenresState(rx.State):
    genres: list[Chip] = []
    loaded: bool = False

    @rx.event
    async def load(self):
        # The held list already follows the spec's rule: named, total > 0.
        snapshot = await held_catalogue().snapshot()
        self.genres = [genre_chip(genre.name, genre.total) for genre in snapshot.genres]
        self.loaded = True


ON_LOAD: list = [GenresState.load]


def view() -> rx.Component:
    return site_layout(
        rx.el.h1("ジャンル一覧", class_name="page-title"),
        rx.el.p("ジャンルを選ぶと、その作品を一覧できます。数字は作品数です。", class_name="page-lead"),
        rx.cond(
            GenresState.loaded & (GenresState.genres.length() == 0),
            rx.el.p("ジャンルはまだありません。", class_name="empty-note"),
            genre_chips(GenresState.genres, label="ジャンル一覧"),
        ),
    )
