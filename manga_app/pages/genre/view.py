"""ジャンル `/genre/{name}`: the genre's titles, sortable and paged."""

import reflex as rx

from manga_app.core.routes import PageKind
from manga_app.pages.genre.state import GenreState
from manga_app.ui.listing import listing_page
from manga_app.ui.page import page


@page(PageKind.GENRE, on_load=[GenreState.load])
def view() -> rx.Component:
    return listing_page(GenreState, count="作品", tabs_label="並び替え")
