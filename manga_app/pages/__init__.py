"""The pages, one package per page kind (its view, state and pure logic), and
their registry here: which view renders which route, with which on_load."""

import reflex as rx

from manga_app.core import routes
from manga_app.heads import seo
from manga_app.heads.tags import page_meta
from manga_app.pages.genre import view as genre
from manga_app.pages.genres import view as genres
from manga_app.pages.history import view as history
from manga_app.pages.home import view as home
from manga_app.pages.library import view as library
from manga_app.pages.title import view as title
from manga_app.pages.not_found import view as not_found
from manga_app.reader import view as reader
from manga_app.pages.search import view as search
from manga_app.heads.state import HeadState
from manga_app.ui.navigation_state import NavigationState
from manga_app.pages.offline import view as offline

PAGES = (home, genres, genre, search, title, reader, library, history, offline)
# Every page: push the path on the navigation stack, then show its head.
_ON_LOAD_COMMON = [NavigationState.track, HeadState.load]


def load_events(kind: routes.PageKind | None) -> list:
    """The on_load handlers of the page of `kind` (None: the 404 page)."""
    page = next((page for page in PAGES if page.KIND is kind), None)
    return [*_ON_LOAD_COMMON, *(page.ON_LOAD if page else [])]


def server_cookies(kind: routes.PageKind | None) -> tuple[str, ...]:
    """The cookies the page of `kind` is rendered with on the server (its
    SERVER_COOKIES: a reader's settings, say); none for most pages, which
    are the same for every visitor."""
    page = next((page for page in PAGES if page.KIND is kind), None)
    return getattr(page, "SERVER_COOKIES", ())


def register_pages(app: rx.App) -> None:
    for page in PAGES:
        app.add_page(
            page.view,
            route=routes.ROUTE_TEMPLATES[page.KIND],
            title=HeadState.title,
            description=HeadState.description,
            image=HeadState.og_image,
            meta=page_meta(),
            on_load=load_events(page.KIND),
        )
    app.add_page(
        not_found.view,
        route="404",
        title=HeadState.title,
        description=HeadState.description,
        # Reflex tests the 404 page's image for truthiness, so no state var here.
        image=seo.DEFAULT_IMAGE,
        meta=page_meta(),
        on_load=_ON_LOAD_COMMON,
    )
