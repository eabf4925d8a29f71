"""Sort and status tabs and genre chips, all plain links: a filter is part
of the URL, so a search can be shared and the back button undoes it."""

from __future__ import annotations

import reflex as rx

from manga_app.ui.link import link
from manga_app.cards.records import Chip, TabLink


def link_tabs(links: rx.Var[list[TabLink]], *, label: str) -> rx.Component:
    def tab(item: rx.Var) -> rx.Component:
        return rx.el.li(
            link(
                item.label,
                href=item.href,
                class_name=rx.cond(item.current, "tab is-current", "tab"),
                aria_current=rx.cond(item.current, "true", "false"),
                replace=False,
            )
        )

    return rx.el.nav(rx.el.ul(rx.foreach(links, tab), class_name="tab-list"), class_name="tabs", aria_label=label)


def genre_chips(chips: rx.Var[list[Chip]], *, label: str) -> rx.Component:
    """Genre links with their counts (home, genre list)."""

    def chip(item: rx.Var) -> rx.Component:
        return rx.el.li(
            link(
                rx.el.span(item.label, class_name="chip-name"),
                rx.cond(item.count != "", rx.el.span(item.count, class_name="chip-count")),
                href=item.href,
                class_name="chip",
            )
        )

    return rx.el.ul(rx.foreach(chips, chip), class_name="chip-row genre-chips", aria_label=label)


def filter_chips(chips: rx.Var[list[Chip]], *, label: str) -> rx.Component:
    """Search genre chips: a tap cycles off -> 含む -> 除く -> off."""

    def chip(item: rx.Var) -> rx.Component:
        mark = rx.match(item.mode, ("include", "✓ "), ("exclude", "✕ "), "")
        state = rx.match(item.mode, ("include", "（含む）"), ("exclude", "（除く）"), "")
        return rx.el.li(
            link(
                mark,
                item.label,
                rx.el.span(state, class_name="visually-hidden"),
                href=item.href,
                class_name=rx.match(item.mode, ("include", "chip is-include"), ("exclude", "chip is-exclude"), "chip"),
                # An attribute of the <a>, not a prop of the Link (which would
                # make it CSS): crawlers skip the endless filter combinations.
                custom_attrs={"rel": "nofollow"},
            )
        )

    return rx.el.ul(rx.foreach(chips, chip), class_name="chip-row filter-chips", aria_label=label)
