"""The reader (`/{slug}-ch-{n}[-{chapter-slug}]`), in the reader layout."""

import reflex as rx

from manga_app.components.layout import reader_layout
from manga_app.routes import PageKind
from manga_app.state.head import HeadState

KIND = PageKind.READER
ON_LOAD: list = []


def view() -> rx.Component:
    return reader_layout(rx.el.p("", class_name="reader-placeholder"), title=HeadState.title)
