"""The console's series editor (/admin/series/{slug}): the series' metadata
form, its cover, its units' titles, the locks, and the CLI's library edits
(remove, renumber, merge) with their dry-run preview. Every event checks the
operator's role on the server first (operator_of) and changes nothing for
anyone else; every change is one transaction and one publish (service.py)."""

from __future__ import annotations

import asyncio
import re

import reflex as rx
from sqlmodel import Session, select

from manga_app.visitor.operator_state import Operator, console_state, operator_of
from manga_app.catalogue import locks, metadata
from manga_app.catalogue.media import cover_path
from manga_app.catalogue.models import MetadataLock, Series
from manga_app.console.heads import show_title
from manga_app.console import queries, service
from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine

MAX_FIELD = 20_000
_KEY = re.compile(r"^\d{1,12}$")


def _read(slug: str) -> dict | None:
    with Session(shared_engine()) as session:
        series = session.exec(select(Series).where(Series.slug == slug)).first()
        if series is None:
            return None
        unit_locks = set(session.exec(select(MetadataLock.chapter_id).where(
            MetadataLock.series_id == series.id, MetadataLock.chapter_id.is_not(None))))
        held = locks.locked(session, series.id)
        return {
            "title": series.title, "form": metadata.series_form(session, series),
            "locked": [name for name in locks.SERIES_FIELDS if name in held],
            "units": queries.unit_rows(session, series.id, unit_locks),
            "cover": f"{get_settings().media_base_url}/{cover_path(series.cover_key)}" if series.cover_key else "",
        }


def _actor(operator: Operator) -> metadata.Actor:
    return metadata.Actor(operator.uid, operator.email)


def _strings(form: object) -> dict[str, str]:
    """A form's fields as strings, each cut at a bound (the checks say what is too long)."""
    if not isinstance(form, dict):
        return {}
    return {str(key)[:40]: value[:MAX_FIELD] for key, value in form.items() if isinstance(value, str)}


def _unit_key(text: object) -> int | None:
    return int(text) if isinstance(text, str) and _KEY.match(text) else None


@console_state
class SeriesEditorState(rx.State):
    slug: str = ""
    found: bool = True
    heading: str = ""
    form: dict[str, str] = {}
    locked: list[str] = []
    units: list[dict] = []
    cover: str = ""
    # Bumped at each load: the forms are made again with the stored values.
    revision: int = 0
    messages: list[str] = []
    errors: dict[str, str] = {}
    preview: list[str] = []
    # The previewed library edit (command, values), applied only as previewed.
    _pending: tuple = ()

    @staticmethod
    def _slug_of_path(path: object) -> str:
        found = routes.match(path) if isinstance(path, str) else None
        return found.params.get("slug", "") if found and found.kind is routes.PageKind.ADMIN_SERIES else ""

    async def _refresh(self) -> None:
        read = await asyncio.to_thread(_read, self.slug)
        self.found = read is not None
        if read:
            self.heading, self.form, self.locked = read["title"], read["form"], read["locked"]
            self.units, self.cover = read["units"], read["cover"]
        self.revision += 1

    def _show(self, done: service.Done) -> None:
        self.messages, self.errors = done.lines, done.errors

    @rx.event
    async def load(self, path: str):
        """The editor of the series at `path`, the browser's own location when
        the console appears (an event's router data may still name the page
        before a client-side navigation)."""
        if await operator_of(self, retry=SeriesEditorState.load(path)) is None:
            return
        self.slug, self.messages, self.errors, self.preview = self._slug_of_path(path), [], {}, []
        await self._refresh()
        await show_title(self, self.heading if self.found else "No such series")

    @rx.event
    async def save(self, form: dict):
        operator = await operator_of(self)
        if operator is None:
            return
        done = await asyncio.to_thread(service.edit_series, self.slug, _strings(form), _actor(operator))
        self._show(done)
        if done.ok:
            await self._refresh()

    @rx.event
    async def save_cover(self, form: dict):
        operator = await operator_of(self)
        if operator is None:
            return
        fields = _strings(form)
        key, page = _unit_key(fields.get("cover_unit")), fields.get("cover_page", "").strip()
        if key is None or not page.isdigit() or not 1 <= int(page) <= 100_000:
            self._show(service.Done(errors={"cover": "Choose a volume or chapter and a page number (1, 2, 3…)."}))
            return
        done = await asyncio.to_thread(service.set_cover, self.slug, key, int(page), _actor(operator))
        self._show(done)
        if done.ok:
            await self._refresh()

    @rx.event
    async def save_unit_title(self, form: dict):
        operator = await operator_of(self)
        if operator is None:
            return
        fields = _strings(form)
        key = _unit_key(fields.get("unit"))
        if key is None:
            self._show(service.Done(errors={"unit": "Choose one of the series' units."}))
            return
        done = await asyncio.to_thread(service.edit_unit_title, self.slug, key, fields.get("title", ""), _actor(operator))
        self._show(done)
        if done.ok:
            await self._refresh()

    @rx.event
    async def unlock(self, field: str, unit: str = ""):
        operator = await operator_of(self)
        if operator is None:
            return
        allowed = locks.UNIT_FIELDS if unit else locks.SERIES_FIELDS
        key = _unit_key(unit) if unit else None
        if field not in allowed or (unit and key is None):
            self._show(service.Done(errors={"form": "Not a locked field."}))
            return
        self._show(await asyncio.to_thread(service.unlock, self.slug, field, _actor(operator), key))
        await self._refresh()

    @rx.event
    async def library_edit(self, form: dict):
        """remove / renumber / merge-series as a dry run: what would change,
        kept to be applied as previewed (apply_edit)."""
        operator = await operator_of(self)
        if operator is None:
            return
        fields = _strings(form)
        command = fields.get("command", "")
        if command == "remove":
            values = {"series": self.slug, "units": fields.get("units", "").split()}
        elif command == "renumber":
            values = {"series": self.slug, "old": fields.get("old", "").strip(), "new": fields.get("new", "").strip()}
        elif command == "merge-series":
            values = {"source": self.slug, "target": fields.get("target", "").strip()}
        else:
            self._show(service.Done(errors={"form": "Unknown edit."}))
            return
        done = await asyncio.to_thread(service.library_edit, command, values, _actor(operator), dry_run=True)
        self._pending = (command, values) if done.ok else ()
        self.preview = done.lines
        self._show(service.Done([], done.errors))

    @rx.event
    async def apply_edit(self):
        operator = await operator_of(self)
        if operator is None or not self._pending:
            return
        (command, values), self._pending, self.preview = self._pending, (), []
        done = await asyncio.to_thread(service.library_edit, command, values, _actor(operator), dry_run=False)
        self._show(done)
        if done.ok:
            await self._refresh()
