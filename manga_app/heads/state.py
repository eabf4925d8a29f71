"""The current page's search-engine data, as React renders it after hydration.

The server writes the same values into the first HTML response (see
manga_app/web/pages.py); both come from `manga_app.heads.build`."""

from typing import ClassVar

import reflex as rx
from reflex_base.constants.state import FIELD_MARKER

from manga_app.heads import build, seo
from manga_app.core import routes, shared
from manga_app.core.config import get_settings
from manga_app.heads.resolve import resolve_head, series_near


def _defaults() -> seo.PageHead:
    settings = get_settings()
    return build.static_head(routes.PageKind.HOME, site_names=settings.names, origin=settings.origin)


# `found` as the seeded states name it: the server's status and the head's stylesheet read it there.
FOUND_FIELD = "found" + FIELD_MARKER


class HeadState(rx.State):
    """Title, description, canonical URL, Open Graph, robots and JSON-LD."""

    page_content: ClassVar[bool] = True  # the same for every visitor, all from on_load (platform/page_content.py)

    title: str = _defaults().title
    # The page's name on screen (the reader's top bar): the title without the site's name.
    heading: str = ""
    description: str = _defaults().description
    canonical: str = ""
    og_type: str = "website"
    og_image: str = ""
    robots: str = seo.NOINDEX_NOFOLLOW
    json_ld: str = ""
    # The page's Atom feed (the title page's), linked for feed readers.
    feed: str = ""
    feed_title: str = ""
    site_name: str = get_settings().site_name
    # The GA4 id on the production host only (PageViewReporter loads gtag with it).
    analytics_id: str = ""
    # False when the path names no page (unknown title, chapter or genre).
    found: bool = True
    # On a not-found page, the series its path names when that exists (an
    # unknown chapter of a known series): the page links to it.
    series_title: str = ""
    series_url: str = ""

    def apply(self, head: seo.PageHead) -> None:
        """Show `head` for the current page (also used by dynamic pages)."""
        settings = get_settings()
        # Every visitor of a page holds the same head: one copy of each text
        # (the JSON-LD is a few KB), core/shared.py.
        self.title = shared.text(head.title)
        self.heading = shared.text(head.heading or head.title)
        self.description = shared.text(head.description)
        self.canonical = shared.text(seo.absolute_url(settings.origin, head.path))
        self.og_type = head.og_type
        self.og_image = shared.text(seo.absolute_url(settings.origin, head.image))
        self.robots = seo.robots_for(head, host=self.router.url.netloc, production_host=settings.production_host)
        self.json_ld = shared.text(seo.json_ld_text(head.json_ld))
        self.feed, self.feed_title = head.feed, shared.text(head.feed_title)
        production = seo.is_production_host(self.router.url.netloc, settings.production_host)
        self.analytics_id = settings.ga_measurement_id if production else ""

    @rx.event
    async def load(self):
        """on_load of every page: the head of the page at the current path."""
        settings = get_settings()
        path = self.router.url.path or "/"
        found = routes.match(path)
        head = await resolve_head(found, path, self.router.url.query or "")
        self.found = head is not None
        self.series_title, self.series_url = ("", "") if self.found else await series_near(found)
        self.apply(head or build.not_found_head(path, site_name=settings.site_name))
