"""Page registry: which view renders which route, with which on_load."""

import reflex as rx

from manga_app import routes, seo
from manga_app.components.head import page_meta
from manga_app.pages import genre, genres, history, home, library, manga, not_found, offline, reader, search
from manga_app.state.head import HeadState
from manga_app.state.navigation import NavigationState

PAGES = (home, genres, genre, search, manga, reader, library, history, offline)
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
