"""Console series editor `/admin/series/{slug}`: metadata (each edited field
locked against the files, with its unlock), cover, unit titles, and the CLI's
library edits with their dry-run preview."""

import reflex as rx

from manga_app.catalogue.metadata_form import AGE_RATINGS, DIRECTIONS, STATUSES
from manga_app.console.layout import console_layout, field_error, notices
from manga_app.console.series_state import SeriesEditorState as S
from manga_app.core import routes
from manga_app.core.pages import PageKind
from manga_app.ui.link import link
from manga_app.ui.page import page

_CHOICE_LABELS = {"": "(unrated)", "all": "All ages", "r15": "R15", "r18": "R18", "rtl": "Right to left",
                  "ltr": "Left to right", "vertical": "Vertical scroll", "ongoing": "Ongoing", "completed": "Completed"}


def _lock(lock: str) -> rx.Component:
    return rx.cond(
        S.locked.contains(lock),
        rx.el.span(rx.el.span("Locked", class_name="console-lock"),
                   rx.el.button("Unlock", type="button", on_click=S.unlock(lock, ""), class_name="console-link-button",
                                aria_label=f"Unlock {lock.replace('_', ' ')}")),
    )


def _field(name: str, label: str, control: rx.Component, hint: str = "", lock: str | None = None) -> rx.Component:
    return rx.el.div(
        rx.el.div(rx.el.label(label, html_for=f"field-{name}"), _lock(lock or name), class_name="console-field-head"),
        control,
        rx.el.p(hint, class_name="console-hint") if hint else rx.fragment(),
        field_error(S.errors, name),
        class_name="console-field",
    )


def _input(name: str, **props) -> rx.Component:
    return rx.el.input(id=f"field-{name}", name=name, default_value=S.form[name], **props)


def _lines(name: str, rows: int = 3) -> rx.Component:
    return rx.el.textarea(id=f"field-{name}", name=name, default_value=S.form[name], rows=rows)


def _select(name: str, choices: tuple[str, ...]) -> rx.Component:
    return rx.el.select(*(rx.el.option(_CHOICE_LABELS[c], value=c) for c in choices), id=f"field-{name}", name=name,
                        default_value=S.form[name])


def _metadata_form() -> rx.Component:
    one_per_line = "One per line."
    return rx.el.form(
        _field("title", "Title", _input("title", max_length=500, required=True)),
        _field("reading", "Reading of the title", _input("reading", max_length=500),
               "In hiragana or katakana; searches find the title by it. Empty: the generated reading.", lock="readings"),
        _field("alt_titles", "Alternative titles", _lines("alt_titles"), one_per_line),
        _field("authors", "Authors", _lines("authors", 2), one_per_line),
        _field("artists", "Artists", _lines("artists", 2), one_per_line),
        _field("summary", "Summary", _lines("summary", 6)),
        _field("genres", "Genres", _lines("genres"), one_per_line),
        _field("tags", "Tags", _lines("tags"), one_per_line),
        rx.el.div(
            _field("status", "Status", _select("status", STATUSES)),
            _field("direction", "Reading direction", _select("direction", DIRECTIONS)),
            _field("age_rating", "Age rating", _select("age_rating", AGE_RATINGS)),
            class_name="console-row",
        ),
        rx.el.button("Save", type="submit", class_name="console-primary"),
        on_submit=S.save,
        reset_on_submit=False,
        key=S.revision.to_string(),
        class_name="console-form",
        aria_label="Series metadata",
        data_testid="series-form",
    )


def _cover_form() -> rx.Component:
    return rx.el.form(
        rx.cond(S.cover != "", rx.el.img(src=S.cover, alt="Current cover", class_name="console-cover", width="120")),
        rx.el.div(
            rx.el.label("Unit", html_for="cover-unit"),
            rx.el.select(rx.foreach(S.units, lambda unit: rx.el.option(unit["label"], value=unit["key"])),
                         id="cover-unit", name="cover_unit"),
            rx.el.label("Page", html_for="cover-page"),
            rx.el.input(id="cover-page", name="cover_page", type="number", min=1, default_value="1", class_name="console-narrow"),
            rx.el.button("Use as cover", type="submit"),
            _lock("cover"),
            class_name="console-inline-form",
        ),
        field_error(S.errors, "cover"),
        on_submit=S.save_cover,
        reset_on_submit=False,
        aria_label="Cover",
    )


def _unit_row(unit: rx.Var) -> rx.Component:
    return rx.el.tr(
        rx.el.td(unit["label"]), rx.el.td(unit["pages"]),
        rx.el.td(rx.el.form(
            rx.el.input(type="hidden", name="unit", value=unit["key"]),
            rx.el.input(name="title", default_value=unit["title"], max_length=500, aria_label="Title of " + unit["label"].to(str)),
            rx.el.button("Save", type="submit"),
            rx.cond(unit["locked"], rx.el.span(rx.el.span("Locked", class_name="console-lock"), rx.el.button(
                "Unlock", type="button", on_click=S.unlock("title", unit["key"].to(str)), class_name="console-link-button"))),
            on_submit=S.save_unit_title,
            reset_on_submit=False,
            class_name="console-inline-form",
        )),
    )


def _edit_form(command: str, label: str, *inputs: rx.Component) -> rx.Component:
    return rx.el.form(
        rx.el.input(type="hidden", name="command", value=command),
        rx.el.fieldset(rx.el.legend(label), *inputs, rx.el.button("Preview", type="submit"), class_name="console-inline-form"),
        field_error(S.errors, command),
        on_submit=S.library_edit,
        reset_on_submit=False,
    )


def _library_edits() -> rx.Component:
    return rx.el.section(
        rx.el.h2("Remove, renumber, merge"),
        rx.el.p("The same edits as the CLI. Preview says what would change; nothing changes until you apply it.",
                class_name="console-hint"),
        _edit_form("remove", "Remove units (empty: the whole series)",
                   rx.el.input(name="units", placeholder="e.g. 12 第3巻", aria_label="Units to remove")),
        _edit_form("renumber", "Renumber a unit", rx.el.input(name="old", placeholder="from, e.g. 12", aria_label="From"),
                   rx.el.input(name="new", placeholder="to, e.g. 14 or 第3巻", aria_label="To")),
        _edit_form("merge-series", "Merge this series into another (its title becomes an alias there)",
                   rx.el.input(name="target", placeholder="slug or exact title", aria_label="Merge into")),
        rx.cond(S.preview.length() > 0, rx.el.div(
            rx.el.h3("Preview"),
            rx.el.ul(rx.foreach(S.preview, lambda line: rx.el.li(line)), data_testid="edit-preview"),
            rx.el.button("Apply this edit", type="button", on_click=S.apply_edit, class_name="console-primary"),
            class_name="console-preview",
        )),
        class_name="console-section",
    )


@page(PageKind.ADMIN_SERIES)
def view() -> rx.Component:
    return console_layout(
        rx.cond(S.found, S.heading, "No such series"),
        notices(S.messages, S.errors),
        rx.cond(
            S.found,
            rx.fragment(
                rx.el.p(link("Open its page on the site", href=routes.manga_url("") + S.slug), class_name="console-lead"),
                rx.el.section(rx.el.h2("Metadata"), _metadata_form(), class_name="console-section"),
                rx.el.section(rx.el.h2("Cover"), _cover_form(), class_name="console-section"),
                rx.el.section(
                    rx.el.h2("Volumes and chapters"),
                    field_error(S.errors, "unit"),
                    rx.el.div(rx.el.table(
                        rx.el.thead(rx.el.tr(rx.el.th("Unit", scope="col"), rx.el.th("Pages", scope="col"),
                                             rx.el.th("Title", scope="col"))),
                        rx.el.tbody(rx.foreach(S.units, _unit_row)),
                        class_name="console-table",
                    ), class_name="console-table-wrap"),
                    class_name="console-section",
                ),
                _library_edits(),
            ),
            rx.el.p("It may have been removed or merged. ", link("Back to the overview", href=routes.ADMIN)),
        ),
        on_open=S.load(rx.Var("window.location.pathname")),
    )
