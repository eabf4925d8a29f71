"""Console overview `/admin`: counts, disk, the last imports, what to look
at, and the series to edit."""

import reflex as rx

from manga_app.console.layout import console_layout
from manga_app.console.overview_state import OverviewState
from manga_app.core.pages import PageKind
from manga_app.ui.link import link
from manga_app.ui.page import page


def _tile(tile: rx.Var) -> rx.Component:
    return rx.el.div(rx.el.dt(tile["label"]), rx.el.dd(tile["value"]), class_name="console-tile")


def _table(caption: str, headers: list[str], rows: rx.Var, cells) -> rx.Component:
    return rx.el.div(
        rx.el.table(
            rx.el.caption(caption),
            rx.el.thead(rx.el.tr(*(rx.el.th(header, scope="col") for header in headers))),
            rx.el.tbody(rx.foreach(rows, lambda row: rx.el.tr(*cells(row)))),
            class_name="console-table",
        ),
        class_name="console-table-wrap",
    )


@page(PageKind.ADMIN)
def view() -> rx.Component:
    return console_layout(
        "Overview",
        rx.el.dl(rx.foreach(OverviewState.tiles, _tile), class_name="console-tiles", data_testid="console-counts"),
        rx.el.section(
            rx.el.h2("To look at"),
            rx.cond(OverviewState.failures.length() > 0,
                    rx.el.ul(rx.foreach(OverviewState.failures, lambda item: rx.el.li(link(item["text"], href=item["url"])))),
                    rx.el.p("Nothing: every unit has pages and every series a cover.")),
            class_name="console-section",
        ),
        rx.el.section(
            rx.el.h2("Last imports"),
            _table("The newest units", ["When", "Series", "Unit", "Pages"], OverviewState.imports, lambda row: [
                rx.el.td(row["when"]), rx.el.td(link(row["series"], href=row["url"])), rx.el.td(row["unit"]),
                rx.el.td(row["pages"])]),
            class_name="console-section",
        ),
        rx.el.section(
            rx.el.h2("Series"),
            rx.el.form(
                rx.el.label("Find a series", html_for="console-filter"),
                rx.el.input(id="console-filter", name="q", type="search", default_value=OverviewState.filter_text,
                            max_length=200, placeholder="title, reading or slug"),
                rx.el.button("Find", type="submit"),
                on_submit=OverviewState.filter_series,
                reset_on_submit=False,
                class_name="console-inline-form",
                role="search",
            ),
            _table("Series, recently updated first (at most 100)", ["Title", "Slug", "Units", "Status", "Updated"],
                   OverviewState.series, lambda row: [
                       rx.el.td(link(row["title"], href=row["url"])), rx.el.td(row["slug"]), rx.el.td(row["units"]),
                       rx.el.td(row["status"]), rx.el.td(row["updated"])]),
            class_name="console-section",
        ),
        on_open=OverviewState.load,
    )
