"""Head tags React renders from HeadState (it hoists them into <head>)."""

import reflex as rx

from manga_app.heads.state import HeadState


def page_meta() -> list[dict]:
    """The `meta=` list every page is registered with."""
    return [
        {"name": "robots", "content": HeadState.robots},
        {"property": "og:title", "content": HeadState.title},
        {"property": "og:description", "content": HeadState.description},
        {"property": "og:url", "content": HeadState.canonical},
        {"property": "og:type", "content": HeadState.og_type},
        {"property": "og:site_name", "content": HeadState.site_name},
        {"property": "og:locale", "content": "ja_JP"},
        {"name": "twitter:card", "content": "summary_large_image"},
    ]


def head_links() -> rx.Component:
    """Canonical link, the page's Atom feed and JSON-LD, rendered once per page."""
    return rx.fragment(
        rx.cond(HeadState.canonical != "", rx.el.link(rel="canonical", href=HeadState.canonical)),
        rx.cond(HeadState.feed != "", rx.el.link(rel="alternate", type="application/atom+xml", title=HeadState.feed_title,
                                                 href=HeadState.feed)),
        rx.cond(HeadState.json_ld != "", rx.el.script(HeadState.json_ld, type="application/ld+json")),
    )
