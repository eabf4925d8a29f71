"""The pages, one package per page kind (its view, state and pure logic), and
their registry here: every view declared with `ui.page.page` in
`manga_app.pages.<name>.view` (and the reader's), added to the app at its
declared route (core/pages.py)."""

import importlib
import pkgutil

import reflex as rx

from manga_app.core import routes
from manga_app.heads import seo
from manga_app.heads.state import HeadState
from manga_app.heads.tags import page_meta
from manga_app.pages.not_found import view as not_found
from manga_app.ui.navigation_state import NavigationState
from manga_app.ui.page import PageView

# Views outside this package: the reader lives in its own part.
_OTHER_VIEWS = ("manga_app.reader.view",)
# Every page: push the path on the navigation stack, then show its head.
_ON_LOAD_COMMON = [NavigationState.track, HeadState.load]


def _declared_views() -> dict[routes.PageKind, PageView]:
    names = [f"{__name__}.{found.name}.view" for found in pkgutil.iter_modules(__path__) if found.ispkg]
    views: dict[routes.PageKind, PageView] = {}
    for name in [*names, *_OTHER_VIEWS]:
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, PageView):
                if value.kind in views:
                    raise RuntimeError(f"{value.kind.name} has two views: {views[value.kind].render} and {value.render}")
                views[value.kind] = value
    return views


VIEWS = _declared_views()


def load_events(kind: routes.PageKind | None) -> list:
    """The on_load handlers of the page of `kind` (None: the 404 page)."""
    page = VIEWS.get(kind) if kind else None
    return [*_ON_LOAD_COMMON, *(page.on_load if page else [])]


def server_cookies(kind: routes.PageKind | None) -> tuple[str, ...]:
    """The cookies the page of `kind` is rendered with on the server."""
    page = VIEWS.get(kind) if kind else None
    return page.server_cookies if page else ()


def register_pages(app: rx.App) -> None:
    for kind in routes.PageKind:
        app.add_page(
            VIEWS[kind].render,
            route=kind.page.route,
            title=HeadState.title,
            description=HeadState.description,
            image=HeadState.og_image,
            meta=page_meta(),
            on_load=load_events(kind),
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
