"""作者 `/author/{name}`: every series by one author, sortable and paged; the
tag page's view (pages/tag/view.py) is the same listing with its own state."""

import reflex as rx

from manga_app.core.routes import PageKind
from manga_app.pages.author.state import AuthorState
from manga_app.ui.listing import listing_page
from manga_app.ui.page import page


@page(PageKind.AUTHOR, on_load=[AuthorState.load])
def view() -> rx.Component:
    return listing_page(AuthorState, count="作品", tabs_label="並び替え")
