"""The audit log page (/admin/audit): every change, newest first, read only."""

from __future__ import annotations

import asyncio

import reflex as rx
from sqlmodel import Session

from manga_app.visitor.operator_state import console_state, operator_of
from manga_app.catalogue import audit
from manga_app.console.heads import show_title
from manga_app.core.db import shared_engine

PER_PAGE = 100


def _entries(page: int) -> list[dict[str, str]]:
    with Session(shared_engine()) as session:
        return [{"id": str(entry.id), "at": entry.at.strftime("%Y-%m-%d %H:%M:%S UTC"), "who": entry.actor_email or entry.actor_uid,
                 "action": entry.action, "target": entry.target, "before": entry.before, "after": entry.after}
                for entry in audit.latest(session, limit=PER_PAGE, offset=page * PER_PAGE)]


@console_state
class AuditState(rx.State):
    entries: list[dict[str, str]] = []
    page: int = 0

    @rx.event
    async def load(self):
        if await operator_of(self, retry=AuditState.load()) is None:
            return
        self.entries = await asyncio.to_thread(_entries, self.page)
        await show_title(self, "Audit log")

    @rx.event
    async def turn(self, step: int):
        if await operator_of(self) is None or not isinstance(step, int) or step not in (-1, 1):
            return
        wanted = max(self.page + step, 0)
        entries = await asyncio.to_thread(_entries, wanted)
        if entries or wanted == 0:
            self.page, self.entries = wanted, entries
