"""Console upload `/admin/upload`: the drop area (Uppy over tus, resumable),
then the plan of the staged files by the importer's rules, with confirm and
drop."""

import reflex as rx

from manga_app.console.layout import console_layout
from manga_app.console.upload_state import UploadState as U
from manga_app.core.config import get_settings
from manga_app.core.pages import PageKind
from manga_app.ui.page import page
from manga_app.ui.uploader import uploader
from manga_app.uploads.staging import ACCEPTED, size_text
from manga_app.uploads.tus_app import TUS_PATH


def _messages() -> rx.Component:
    return rx.fragment(
        rx.cond(U.error != "", rx.el.p(U.error, class_name="console-error", role="alert")),
        rx.el.div(rx.cond(U.message != "", rx.el.p(U.message, class_name="console-messages")), role="status",
                  data_testid="upload-status"),
    )


def _drop_area() -> rx.Component:
    limit = get_settings().upload_max_bytes
    return rx.el.section(
        rx.el.h2("Files"),
        rx.el.p(f"Drop {ACCEPTED}, or whole folders laid out as for make import (series, volume, chapter). "
                "Uploads continue after a dropped connection, and after a reload or a closed tab by themselves "
                "(a file over 1 GB: choose it again and it continues where it stopped).", class_name="console-hint"),
        uploader(endpoint=TUS_PATH, max_file_size=limit, note=f"Up to {size_text(limit)} a file.",
                 on_uploaded=U.uploaded),
        class_name="console-section",
    )


def _row(row: rx.Var) -> rx.Component:
    return rx.el.tr(
        rx.el.td(row["path"], data_label="File", class_name="console-value"),
        rx.el.td(row["label"], data_label="Plan", class_name="console-plan-outcome"),
        rx.el.td(row["series"], data_label="Series", class_name="console-value"),
        rx.el.td(row["unit"], data_label="Unit"),
        rx.el.td(row["reason"], data_label="Reason", class_name="console-value"),
        rx.el.td(rx.el.div(
            rx.el.button("Edit", type="button", on_click=U.start_edit(row["path"]), class_name="console-link-button",
                         aria_label="Edit the placement of " + row["path"]),
            rx.el.button("Drop", type="button", on_click=U.drop(row["path"]), class_name="console-link-button",
                         aria_label="Drop " + row["path"]),
            class_name="console-actions",
        ), data_label="Actions"),
        data_outcome=row["outcome"],
    )


def _placement_form() -> rx.Component:
    """Where the file goes, chosen by the operator: it wins over its metadata and names."""
    return rx.cond(U.editing != "", rx.el.form(
        rx.el.h3("Placement of " + U.editing),
        rx.el.label("Series", html_for="placement-series"),
        rx.el.input(id="placement-series", name="series", default_value=U.placement["series"], required=True,
                    max_length=300, key="series-" + U.editing),
        rx.el.label("Unit", html_for="placement-kind"),
        rx.el.select(rx.el.option("Chapter", value="chapter"), rx.el.option("Volume", value="volume"),
                     id="placement-kind", name="kind", default_value=U.placement["kind"], key="kind-" + U.editing),
        rx.el.label("Number", html_for="placement-number"),
        rx.el.input(id="placement-number", name="number", default_value=U.placement["number"], required=True,
                    max_length=12, input_mode="decimal", key="number-" + U.editing),
        rx.el.button("Save placement", type="submit"),
        rx.el.button("Cancel", type="button", on_click=U.cancel_edit, class_name="console-link-button"),
        on_submit=U.save_placement,
        class_name="console-inline-form",
        data_testid="placement-form",
    ))


def _plan() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Plan"),
        rx.el.p("What the import will do with the staged files, by the same rules as make import. Nothing is "
                "imported until you confirm, and a file in conflict (a number already taken) must be placed "
                "elsewhere with Edit, or dropped, first. Refused files are not imported; the job lists them with "
                "the reason shown here.", class_name="console-hint"),
        rx.cond(U.plan.length() > 0, rx.fragment(
            rx.el.p(U.counts, class_name="console-hint", data_testid="plan-counts"),
            rx.el.div(rx.el.table(
                rx.el.caption("Staged files"),
                rx.el.thead(rx.el.tr(*(rx.el.th(h, scope="col") for h in ("File", "Plan", "Series", "Unit", "Reason",
                                                                          "Actions")))),
                rx.el.tbody(rx.foreach(U.plan, _row)),
                class_name="console-table console-stacked",
                data_testid="plan",
            ), class_name="console-table-wrap"),
            _placement_form(),
            rx.el.p(U.blocked, id="confirm-blocked", class_name="console-error", data_testid="confirm-blocked"),
            rx.el.button("Confirm and import", type="button", on_click=U.confirm_all, disabled=U.blocked != "",
                         aria_describedby="confirm-blocked"),
        ), rx.cond(U.loaded, rx.el.p("Nothing is staged.", class_name="console-hint"))),
        class_name="console-section",
    )


@page(PageKind.ADMIN_UPLOAD)
def view() -> rx.Component:
    return console_layout("Upload", _messages(), _drop_area(), _plan(), on_open=U.load)
