"""Page links (`?page=N`): real links, so crawlers and the back button work."""

from __future__ import annotations

import reflex as rx

from manga_app.ui.link import link
from manga_app.cards.records import PageLink


def _page_item(item: rx.Var) -> rx.Component:
    return rx.el.li(
        rx.cond(
            item.gap,
            rx.el.span("…", class_name="pager-gap"),
            rx.cond(
                item.current,
                rx.el.span(item.label, class_name="pager-link is-current", aria_current="page"),
                rx.cond(
                    item.href != "",
                    link(item.label, href=item.href, class_name="pager-link"),
                    rx.el.span(item.label, class_name="pager-link is-disabled", aria_disabled="true"),
                ),
            ),
        ),
    )


def pager(links: rx.Var[list[PageLink]]) -> rx.Component:
    return rx.cond(
        links.length() > 0,
        rx.el.nav(rx.el.ul(rx.foreach(links, _page_item), class_name="pager-list"), class_name="pager", aria_label="ページ送り"),
    )
