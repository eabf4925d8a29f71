"""The console's jobs page (/admin/jobs): the library folders (register,
remove, scan now, scan interval with the next scheduled scan) and the
import jobs with their live progress, time left, per-file results and
cancel. Every event checks the operator's role on the server first
(operator_of); while a job is active the page follows it (`watch`, a
background event, reading the job rows each second)."""

from __future__ import annotations

import asyncio
from datetime import datetime

import reflex as rx
from sqlmodel import Session

from manga_app.visitor.operator_state import Operator, console_state, operator_of
from manga_app.catalogue import metadata
from manga_app.catalogue.models import utc_now
from manga_app.catalogue.progress import duration_text
from manga_app.console.heads import show_title
from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine
from manga_app.jobs import schedule, store
from manga_app.jobs.models import FINISHED, ImportJob, LibraryFolder

WATCH_SECONDS = 1.0
# A watch ends this long after no job is active any more (or when it gets no answer).
WATCH_IDLE_ROUNDS = 3


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC") if moment else ""


def _left(job: ImportJob) -> str:
    if job.status == "queued":
        return "waiting"
    if job.status != "running":
        return ""
    return f"about {duration_text(job.seconds_left)}" if job.seconds_left is not None else "reckoning…"


def _job_row(job: ImportJob) -> dict[str, str]:
    return {"id": str(job.id), "label": job.label, "status": job.status, "percent": str(round(job.share * 100)),
            "done": f"{job.chapters_done}/{job.chapters_total} chapters, {job.pages_done} pages",
            "left": _left(job), "current": job.current, "summary": job.summary, "when": _when(job.created_at),
            "who": job.requested_by, "active": "yes" if job.status not in FINISHED else ""}


def _next_scan(folder: LibraryFolder) -> str:
    if not folder.scan_every_hours or folder.next_scan_at is None:
        return "No scheduled scans"
    if folder.next_scan_at <= utc_now():
        return "Next scan: due now"
    return f"Next scan: {folder.next_scan_at:%Y-%m-%d %H:%M UTC}"


def _library_row(folder: LibraryFolder, job: ImportJob | None) -> dict[str, str]:
    return {"id": str(folder.id), "path": folder.path, "interval": schedule.interval_of(folder.scan_every_hours),
            "next": _next_scan(folder),
            "last": f"job {job.id}: {job.status}" + (f" — {job.summary}" if job.summary else "") if job else "never scanned"}


def _read(selected: int) -> dict:
    with Session(shared_engine()) as session:
        jobs = [_job_row(job) for job in store.recent(session)]
        libraries = [_library_row(folder, job) for folder, job in store.libraries(session)]
        counts, files = store.files_of(session, selected) if selected else ({}, [])
    return {"jobs": jobs, "libraries": libraries,
            "counts": ", ".join(f"{n} {outcome}" for outcome, n in sorted(counts.items())),
            "files": [{"path": f.path, "outcome": f.outcome, "reason": f.reason} for f in files]}


def _actor(operator: Operator) -> metadata.Actor:
    return metadata.Actor(operator.uid, operator.email)


def _change(action, *args) -> tuple[str, str]:
    """(message, error) of one store change, in its own session."""
    with Session(shared_engine()) as session:
        try:
            result = action(session, *args)
        except store.Refused as refused:
            return "", str(refused)
    if isinstance(result, ImportJob):
        return (f"Job {result.id} queued: {result.label}." if result.status == "queued"
                else f"Job {result.id}: {result.summary}"), ""
    return (result if isinstance(result, str) else f"{result.path} is now a library: scan it to import it."), ""


def _id(value: object) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() and len(value) < 12 else None


@console_state
class JobsState(rx.State):
    jobs: list[dict[str, str]] = []
    libraries: list[dict[str, str]] = []
    selected: str = ""
    counts: str = ""
    files: list[dict[str, str]] = []
    message: str = ""
    error: str = ""
    _watching: bool = False

    async def _refresh(self) -> bool:
        """Read again; whether a job is still active."""
        read = await asyncio.to_thread(_read, _id(self.selected) or 0)
        self.jobs, self.libraries, self.counts, self.files = read["jobs"], read["libraries"], read["counts"], read["files"]
        return any(job["active"] for job in self.jobs)

    async def _changed(self, operator: Operator, action, *args):
        self.message, self.error = await asyncio.to_thread(_change, action, *args)
        if await self._refresh():
            return JobsState.watch

    @rx.event
    async def load(self):
        if await operator_of(self, retry=JobsState.load()) is None:
            return
        await show_title(self, "Jobs")
        if await self._refresh():
            return JobsState.watch

    @rx.event(background=True)
    async def watch(self):
        async with self:
            if self._watching or await operator_of(self) is None:
                return
            self._watching = True
        try:
            idle = 0
            while idle < WATCH_IDLE_ROUNDS:
                await asyncio.sleep(WATCH_SECONDS)
                async with self:
                    if await operator_of(self) is None:
                        return
                    idle = 0 if await self._refresh() else idle + 1
        finally:
            async with self:
                self._watching = False

    @rx.event
    async def add_library(self, form: dict):
        if (operator := await operator_of(self)) is None:
            return
        path = form.get("path") if isinstance(form, dict) else None
        return await self._changed(operator, store.add_library, path if isinstance(path, str) else "",
                                   get_settings().data_dir, _actor(operator))

    @rx.event
    async def remove_library(self, library: str):
        if (operator := await operator_of(self)) is None or (library_id := _id(library)) is None:
            return
        return await self._changed(operator, store.remove_library, library_id, _actor(operator))

    @rx.event
    async def scan(self, library: str):
        if (operator := await operator_of(self)) is None or (library_id := _id(library)) is None:
            return
        return await self._changed(operator, store.scan, library_id, _actor(operator))

    @rx.event
    async def set_scan_interval(self, library: str, interval: str):
        if (operator := await operator_of(self)) is None:
            return
        if (library_id := _id(library)) is None:
            self.message, self.error = "", "That library is not registered any more."
            return
        return await self._changed(operator, schedule.set_interval, library_id, interval, _actor(operator))

    @rx.event
    async def cancel(self, job: str):
        if (operator := await operator_of(self)) is None or (job_id := _id(job)) is None:
            return
        return await self._changed(operator, store.cancel, job_id, _actor(operator))

    @rx.event
    async def show_files(self, job: str):
        if await operator_of(self) is None or _id(job) is None:
            return
        self.selected = job
        await self._refresh()
