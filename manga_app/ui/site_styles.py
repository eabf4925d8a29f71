"""The site's stylesheet link in the document head (assets/js/site_styles.jsx),
put in place of Reflex's by manga_app/platform/."""

import reflex as rx

from manga_app.core import routes
from manga_app.heads.state import FOUND_FIELD, HeadState


class SiteStylesheet(rx.Component):
    """The site's stylesheet; on reader pages, the reader's own rules in the
    server's HTML, and the site's once the app has started."""

    library = rx.asset("js/site_styles.jsx").importable_path
    tag = "SiteStylesheet"

    href: rx.Var[str]
    # The reader's path rule (a RegExp source): its pages draw with their own rules.
    reader_path: rx.Var[str]
    # Where the seeded states say whether the path names a page (HeadState.found): a reader
    # path that names no chapter is the 404 page, drawn with the site's stylesheet.
    found_state: rx.Var[str]
    found_field: rx.Var[str]


def site_stylesheet(href: rx.Var) -> rx.Component:
    return SiteStylesheet.create(href=href, reader_path=routes.reader_path_pattern(),
                                 found_state=HeadState.get_full_name(), found_field=FOUND_FIELD)
