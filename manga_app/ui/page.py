"""A view joined to its page's declaration (core/pages.py): what only the
view's side knows, the on_load handlers and the cookies the server renders it
with. `manga_app.pages` finds every view declared so and adds it to the app."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import reflex as rx

from manga_app.core.pages import PageKind


@dataclass(frozen=True)
class PageView:
    kind: PageKind
    render: Callable[[], rx.Component]
    # Page-specific on_load events, run after the navigation stack and the head.
    on_load: tuple = ()
    # The cookies the page is rendered with on the server (a reader's
    # settings, say); none for most pages, which are the same for every visitor.
    server_cookies: tuple[str, ...] = ()

    def __call__(self) -> rx.Component:
        return self.render()


def page(kind: PageKind, *, on_load: Sequence = (), server_cookies: Sequence[str] = ()) -> Callable[[Callable[[], rx.Component]], PageView]:
    """`@page(PageKind.HOME, on_load=[HomeState.load])` above a page's view."""

    def declare(render: Callable[[], rx.Component]) -> PageView:
        return PageView(kind, render, tuple(on_load), tuple(server_cookies))

    return declare
