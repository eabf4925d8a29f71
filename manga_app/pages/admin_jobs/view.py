"""Console jobs `/admin/jobs`: the library folders on the server (register,
scan now, scan interval with the next scheduled scan, remove) and the import
jobs, live: progress, time left, the file being read, each file's outcome,
and cancel."""

import reflex as rx

from manga_app.console.jobs_state import JobsState as J
from manga_app.console.layout import console_layout
from manga_app.core.pages import PageKind
from manga_app.jobs.schedule import INTERVALS
from manga_app.ui.page import page


def _messages() -> rx.Component:
    return rx.fragment(
        rx.cond(J.error != "", rx.el.p(J.error, class_name="console-error", role="alert")),
        rx.el.div(rx.cond(J.message != "", rx.el.p(J.message, class_name="console-messages")), role="status"),
    )


def _libraries() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Libraries"),
        rx.el.p("Folders on the server that hold comics, laid out as for make import. A scan imports what is new or "
                "changed and removes the units whose files are gone. A library on a schedule (hourly, every 6 hours, "
                "daily) is scanned that long after its last scan began.", class_name="console-hint"),
        rx.el.form(
            rx.el.label("Folder on the server", html_for="library-path"),
            rx.el.input(id="library-path", name="path", placeholder="/srv/comics", max_length=4096, required=True),
            rx.el.button("Add library", type="submit"),
            on_submit=J.add_library,
            reset_on_submit=True,
            class_name="console-inline-form",
        ),
        rx.el.ul(rx.foreach(J.libraries, lambda library: rx.el.li(
            rx.el.span(library["path"], class_name="console-library-path"),
            rx.el.span(library["last"], class_name="console-hint"),
            rx.el.label("Scheduled scans ", rx.el.select(
                *(rx.el.option(label, value=key) for key, (_, label) in INTERVALS.items()),
                value=library["interval"], on_change=lambda interval: J.set_scan_interval(library["id"], interval),
                aria_label="Scheduled scans: " + library["path"],
            )),
            rx.el.span(library["next"], class_name="console-hint console-next-scan"),
            rx.el.button("Scan now", type="button", on_click=J.scan(library["id"]), aria_label="Scan now: " + library["path"]),
            rx.el.button("Remove", type="button", on_click=J.remove_library(library["id"]), class_name="console-link-button",
                         aria_label="Remove library " + library["path"]),
            class_name="console-library",
        )), class_name="console-libraries", data_testid="libraries"),
        class_name="console-section",
    )


def _job_row(job: rx.Var) -> rx.Component:
    return rx.el.tr(
        rx.el.td("#" + job["id"] + " " + job["label"], data_label="Job", class_name="console-value"),
        rx.el.td(job["status"], data_label="Status", class_name="console-job-status"),
        rx.el.td(
            rx.el.progress(value=job["percent"], max="100", aria_label="Progress of job " + job["id"]),
            rx.el.div(job["done"]),
            rx.el.div(job["current"], class_name="console-hint"),
            data_label="Progress",
        ),
        rx.el.td(job["left"], data_label="Time left"),
        rx.el.td(job["summary"], data_label="Outcome", class_name="console-value"),
        rx.el.td(rx.el.div(
            rx.el.button("Files", type="button", on_click=J.show_files(job["id"]), aria_label="Files of job " + job["id"]),
            rx.cond(job["active"] != "", rx.el.button("Cancel", type="button", on_click=J.cancel(job["id"]),
                                                aria_label="Cancel job " + job["id"])),
            class_name="console-actions",
        ), data_label="Actions"),
        data_status=job["status"],
    )


def _jobs() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Jobs"),
        rx.el.div(rx.el.table(
            rx.el.caption("Import jobs, newest first"),
            rx.el.thead(rx.el.tr(*(rx.el.th(h, scope="col") for h in ("Job", "Status", "Progress", "Time left", "Outcome", "Actions")))),
            rx.el.tbody(rx.foreach(J.jobs, _job_row)),
            class_name="console-table console-stacked",
            data_testid="jobs",
        ), class_name="console-table-wrap"),
        class_name="console-section",
    )


def _files() -> rx.Component:
    return rx.cond(J.selected != "", rx.el.section(
        rx.el.h2("Files of job #" + J.selected),
        rx.el.p(J.counts, class_name="console-hint"),
        rx.el.div(rx.el.table(
            rx.el.thead(rx.el.tr(*(rx.el.th(h, scope="col") for h in ("File", "Outcome", "Reason")))),
            rx.el.tbody(rx.foreach(J.files, lambda f: rx.el.tr(
                rx.el.td(f["path"], data_label="File", class_name="console-value"), rx.el.td(f["outcome"], data_label="Outcome"),
                rx.el.td(f["reason"], data_label="Reason", class_name="console-value")))),
            class_name="console-table console-stacked",
            data_testid="job-files",
        ), class_name="console-table-wrap"),
        class_name="console-section",
    ))


@page(PageKind.ADMIN_JOBS)
def view() -> rx.Component:
    return console_layout("Jobs", _messages(), _libraries(), _jobs(), _files(), on_open=J.load)
