"""Console audit log `/admin/audit`: who changed what, when, before and after."""

import reflex as rx

from manga_app.console.audit_state import AuditState
from manga_app.console.layout import console_layout
from manga_app.core.pages import PageKind
from manga_app.ui.page import page

_COLUMNS = (("at", "When"), ("who", "Who"), ("action", "Action"), ("target", "What"), ("before", "Before"), ("after", "After"))


@page(PageKind.ADMIN_AUDIT)
def view() -> rx.Component:
    return console_layout(
        "Audit log",
        rx.el.p("Every change made from the console, newest first. It cannot be edited.", class_name="console-lead"),
        rx.el.div(
            rx.el.table(
                rx.el.caption("Changes"),
                rx.el.thead(rx.el.tr(*(rx.el.th(label, scope="col") for _, label in _COLUMNS))),
                rx.el.tbody(rx.foreach(AuditState.entries, lambda entry: rx.el.tr(
                    *(rx.el.td(entry[key], data_label=label, class_name="console-value" if key in ("before", "after") else "")
                      for key, label in _COLUMNS),
                ))),
                class_name="console-table console-stacked",
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
