"""The console's upload page (/admin/upload): the plan of the operator's
staged files (uploads.plan: new series, joins, conflict, refused with the
reason), refreshed as uploads settle; confirm (once no file is in conflict:
the import is queued on the job queue, shown in /admin/jobs), edit a file's placement or drop a file. Every event checks the operator's
role on the server first (operator_of); the staging folder is the operator's
own, named from the verified uid."""

from __future__ import annotations

import asyncio

import reflex as rx
from sqlmodel import Session

from manga_app.visitor.operator_state import Operator, console_state, operator_of
from manga_app.catalogue import metadata
from manga_app.console.heads import show_title
from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine
from manga_app.jobs import store
from manga_app.uploads import confirm, staging
from manga_app.uploads.plan import OUTCOMES, plan_staged

MAX_PATH = 2000
LABELS = {"new": "New series", "joins": "Joins existing series", "conflict": "Conflict", "refused": "Refused"}


def _plan(uid: str) -> list[dict[str, str]]:
    root = staging.staged_dir(get_settings(), uid)
    return [{"path": item.path, "outcome": item.outcome, "series": item.series, "unit": item.unit, "reason": item.reason,
             "label": LABELS[item.outcome] + (" (placed by you)" if item.edited else "")}
            for item in plan_staged(root, shared_engine())]


def _change(action, operator: Operator, *args) -> tuple[str, str]:
    """(message, error) of one change, in its own session."""
    with Session(shared_engine()) as session:
        try:
            result = action(session, get_settings(), metadata.Actor(operator.uid, operator.email), *args)
        except store.Refused as refused:
            return "", str(refused)
    if isinstance(result, str):
        return result, ""
    if result.status != "queued":
        return "", f"Job {result.id}: {result.summary}"
    return f"Job {result.id} queued: {result.label}. Follow it in Jobs.", ""


@console_state
class UploadState(rx.State):
    plan: list[dict[str, str]] = []
    counts: str = ""
    message: str = ""
    error: str = ""
    loaded: bool = False
    # The staged path whose placement is being edited, and the form's first values.
    editing: str = ""
    placement: dict[str, str] = {}
    # Why Confirm waits (the files in conflict), or "".
    blocked: str = ""

    async def _refresh(self, operator: Operator) -> None:
        self.plan = await asyncio.to_thread(_plan, operator.uid)
        found = {outcome: sum(1 for row in self.plan if row["outcome"] == outcome) for outcome in OUTCOMES}
        self.counts = ", ".join(f"{found[outcome]} {LABELS[outcome].lower()}" for outcome in OUTCOMES if found[outcome])
        conflicts = [row["path"] for row in self.plan if row["outcome"] == "conflict"]
        self.blocked = confirm.conflicts_text(conflicts) if conflicts else ""
        self.loaded = True

    @rx.event
    async def load(self):
        if (operator := await operator_of(self, retry=UploadState.load())) is None:
            return
        self.message = self.error = ""
        await show_title(self, "Upload")
        await self._refresh(operator)

    @rx.event
    async def uploaded(self, succeeded: int, failed: int):
        """A batch of uploads settled in the browser: plan what is staged now."""
        if (operator := await operator_of(self)) is None:
            return
        self.message, self.error = "", ""
        if isinstance(failed, int) and failed > 0:
            self.error = f"{failed} upload{'s' if failed != 1 else ''} failed: see the reason beside each file above."
        await self._refresh(operator)

    @rx.event
    async def confirm_all(self):
        if (operator := await operator_of(self)) is None:
            return
        self.message, self.error = await asyncio.to_thread(_change, confirm.confirm, operator)
        await self._refresh(operator)

    @rx.event
    async def drop(self, path: str):
        if (operator := await operator_of(self)) is None or not isinstance(path, str) or len(path) > MAX_PATH:
            return
        self.message, self.error = await asyncio.to_thread(_change, confirm.drop, operator, path)
        await self._refresh(operator)

    @rx.event
    async def start_edit(self, path: str):
        if await operator_of(self) is None:
            return
        row = next((row for row in self.plan if row["path"] == path), None)
        if row is None:
            return
        kind, _, number = row["unit"].partition(" ")
        self.editing = path
        self.placement = {"series": row["series"], "kind": kind or "chapter", "number": number}

    @rx.event
    async def cancel_edit(self):
        if await operator_of(self) is None:
            return
        self.editing, self.placement = "", {}

    @rx.event
    async def save_placement(self, form: dict):
        if (operator := await operator_of(self)) is None or not self.editing:
            return
        fields = {key: form.get(key) if isinstance(form, dict) and isinstance(form.get(key), str) else ""
                  for key in ("series", "kind", "number")}
        self.message, self.error = await asyncio.to_thread(
            _change, confirm.edit, operator, self.editing, fields["series"][:MAX_PATH], fields["kind"], fields["number"][:40])
        if not self.error:
            self.editing, self.placement = "", {}
        await self._refresh(operator)
