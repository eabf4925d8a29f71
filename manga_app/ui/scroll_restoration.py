"""React Router's scroll restoration in the document body
(assets/js/scroll_restoration.jsx), put in place of Reflex's by
manga_app/platform/."""

import reflex as rx

from manga_app.core import routes


class SiteScrollRestoration(rx.Component):
    """React Router's scroll restoration; on reader pages its script runs
    once the page is parsed instead of holding the parser."""

    library = rx.asset("js/scroll_restoration.jsx").importable_path
    tag = "SiteScrollRestoration"

    # The reader's path rule (a RegExp source).
    reader_path: rx.Var[str]


def site_scroll_restoration() -> rx.Component:
    return SiteScrollRestoration.create(reader_path=routes.reader_path_pattern())
