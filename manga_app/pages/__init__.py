"""Page registry: which view renders which route, with which on_load."""

import reflex as rx

from manga_app import routes, seo
from manga_app.components.head import page_meta
from manga_app.pages import home, not_found
from manga_app.routes import PageKind
from manga_app.state.head import HeadState
from manga_app.state.navigation import NavigationState

_ON_LOAD_COMMON = [NavigationState.track]


def register_pages(app: rx.App) -> None:
    def add(kind: PageKind, view, on_load: list) -> None:
        app.add_page(
            view,
            route=routes.ROUTE_TEMPLATES[kind],
            title=HeadState.title,
            description=HeadState.description,
            image=HeadState.og_image,
            meta=page_meta(),
            on_load=[*_ON_LOAD_COMMON, *on_load],
        )

    add(PageKind.HOME, home.view, [HeadState.load])
    app.add_page(
        not_found.view,
        route="404",
        title=HeadState.title,
        description=HeadState.description,
        # Reflex tests the 404 page's image for truthiness, so no state var here.
        image=seo.DEFAULT_IMAGE,
        meta=page_meta(),
        on_load=[*_ON_LOAD_COMMON, HeadState.load],
    )
