"""Console audit log `/admin/audit`: who changed what, when, before and after."""

import reflex as rx

from manga_app.console.audit_state import AuditState
from manga_app.console.layout import console_layout
from manga_app.core.pages import PageKind
from manga_app.ui.page import page


@page(PageKind.ADMIN_AUDIT)
def view() -> rx.Component:
    return console_layout(
        "Audit log",
        rx.el.p("Every change made from the console, newest first. It cannot be edited.", class_name="console-lead"),
        rx.el.div(
            rx.el.table(
                rx.el.caption("Changes"),
                rx.el.thead(rx.el.tr(*(rx.el.th(h, scope="col") for h in ("When", "Who", "Action", "What", "Before", "After")))),
                rx.el.tbody(rx.foreach(AuditState.entries, lambda entry: rx.el.tr(
                    rx.el.td(entry["at"]), rx.el.td(entry["who"]), rx.el.td(entry["action"]), rx.el.td(entry["target"]),
                    rx.el.td(entry["before"], class_name="console-value"), rx.el.td(entry["after"], class_name="console-value"),
                ))),
                class_name="console-table",
                data_testid="audit-log",
            ),
            class_name="console-table-wrap",
        ),
        rx.el.div(
            rx.el.button("Newer", type="button", on_click=AuditState.turn(-1), disabled=AuditState.page == 0),
            rx.el.button("Older", type="button", on_click=AuditState.turn(1)),
            class_name="console-pager",
        ),
        on_open=AuditState.load,
    )
