"""The console's overview (/admin): counts, the last imports, what to look
at, disk use, and the series list (filtered by a text)."""

from __future__ import annotations

import asyncio

import reflex as rx
from sqlmodel import Session

from manga_app.visitor.operator_state import console_state, operator_of
from manga_app.console.heads import show_title
from manga_app.console import queries
from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine

MAX_FILTER = 200


def _read(text: str) -> dict:
    with Session(shared_engine()) as session:
        return {"tiles": queries.counts(session) + queries.disk(get_settings().data_dir),
                "imports": queries.last_imports(session), "failures": queries.failures(session),
                "series": queries.series_rows(session, text)}


@console_state
class OverviewState(rx.State):
    tiles: list[dict[str, str]] = []
    imports: list[dict[str, str]] = []
    failures: list[dict[str, str]] = []
    series: list[dict[str, str]] = []
    filter_text: str = ""
    loaded: bool = False

    @rx.event
    async def load(self):
        if await operator_of(self, retry=OverviewState.load()) is None:
            return
        read = await asyncio.to_thread(_read, self.filter_text)
        self.tiles, self.imports, self.failures, self.series = read["tiles"], read["imports"], read["failures"], read["series"]
        self.loaded = True
        await show_title(self, "Overview")

    @rx.event
    async def filter_series(self, form: dict):
        if await operator_of(self) is None:
            return
        text = form.get("q") if isinstance(form, dict) else ""
        self.filter_text = text[:MAX_FILTER] if isinstance(text, str) else ""
        self.series = await asyncio.to_thread(lambda: _read(self.filter_text)["series"])
