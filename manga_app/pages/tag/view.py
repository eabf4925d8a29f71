"""タグ `/tag/{name}`: every series with one tag, sortable and paged."""

import reflex as rx

from manga_app.core.routes import PageKind
from manga_app.pages.author.state import TagState
from manga_app.ui.listing import listing_page
from manga_app.ui.page import page


@page(PageKind.TAG, on_load=[TagState.load])
def view() -> rx.Component:
    return listing_page(TagState, count="作品", tabs_label="並び替え")
