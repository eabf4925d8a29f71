"""Scheduled scans of the library folders. Each library has a scan interval
the operator sets in the console (INTERVALS), kept as its hours with the
time of its next scan. The consumer's periodic task (queue.py, every
minute) calls scan_due: each library whose next scan has come and that has
no scan queued or running gets one, recorded in the audit log as the
scheduler's. Queuing one moves its next scan on by the interval first, in
the transaction that adds the job and only if no other scheduler moved it
meanwhile, so two consumers never queue the same scan; a scan that fails
leaves the schedule as it is."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple

import sqlalchemy as sa
from sqlmodel import Session, select, update

from manga_app.catalogue import audit
from manga_app.catalogue.models import utc_now
from manga_app.jobs.models import ImportJob, LibraryFolder
from manga_app.jobs.store import Refused, submit

__all__ = ["INTERVALS", "SCHEDULER", "Due", "due", "interval_of", "next_scan", "queue_scan", "scan_due", "set_interval"]

logger = logging.getLogger(__name__)

# The intervals the console offers: key -> (hours, label).
INTERVALS = {"off": (0, "Off"), "hourly": (1, "Hourly"), "every-6-hours": (6, "Every 6 hours"), "daily": (24, "Daily")}
_EVERY = {1: "every hour", 6: "every 6 hours", 24: "every day"}
# Who queued a scheduled scan, in the audit log and the job's row.
SCHEDULER = SimpleNamespace(uid="scheduler", email="scheduler")
ACTIVE = ("queued", "running")


class Due(NamedTuple):
    library_id: int
    path: str
    hours: int
    next_scan_at: datetime


def interval_of(hours: int) -> str:
    """The key of a library's interval (hours outside INTERVALS read as off)."""
    return next((key for key, (h, _) in INTERVALS.items() if h == hours), "off")


def next_scan(session: Session, library_id: int, hours: int, now: datetime) -> datetime | None:
    """When a library on an interval of `hours` is scanned next: an interval
    after its last scan began, or now when it was never scanned."""
    if not hours:
        return None
    last = session.exec(select(sa.func.max(ImportJob.created_at)).where(ImportJob.library_id == library_id)).one()
    return now if last is None else last + timedelta(hours=hours)


def set_interval(session: Session, library_id: int, interval: object, actor) -> str:
    """Scan library `library_id` every `interval` (a key of INTERVALS); the operator's message."""
    if not isinstance(interval, str) or interval not in INTERVALS:
        shown = interval if isinstance(interval, str) else ""
        labels = [label for _, label in INTERVALS.values()]
        raise Refused(f"Unknown scan interval '{shown[:40]}': choose {', '.join(labels[:-1])} or {labels[-1]}.")
    folder = session.get(LibraryFolder, library_id)
    if folder is None:
        raise Refused("That library is not registered any more.")
    hours, before = INTERVALS[interval][0], interval_of(folder.scan_every_hours)
    if interval != before:
        folder.scan_every_hours = hours
        folder.next_scan_at = next_scan(session, library_id, hours, utc_now())
        session.add(folder)
        audit.record(session, actor, "scan-interval", f"library {folder.path}", before, interval)
        session.commit()
        session.refresh(folder)
    if not hours:
        return f"{folder.path} is no longer scanned on a schedule."
    return f"{folder.path} is scanned {_EVERY[hours]}; next scan at {folder.next_scan_at:%Y-%m-%d %H:%M UTC}."


def due(session: Session, now: datetime) -> list[Due]:
    """The libraries whose next scan has come and that have no scan queued or running."""
    active = select(ImportJob.id).where(ImportJob.library_id == LibraryFolder.id, ImportJob.status.in_(ACTIVE))
    rows = session.exec(select(LibraryFolder.id, LibraryFolder.path, LibraryFolder.scan_every_hours,
                               LibraryFolder.next_scan_at)
                        .where(LibraryFolder.scan_every_hours > 0, LibraryFolder.next_scan_at <= now, ~active.exists())
                        .order_by(LibraryFolder.next_scan_at))
    return [Due(*row) for row in rows]


def queue_scan(engine: sa.Engine, library: Due, now: datetime) -> ImportJob | None:
    """Queue the scan of `library`, found due; None when another scheduler
    queued it since, the operator changed its interval, or a scan started."""
    with Session(engine) as session:
        active = select(ImportJob.id).where(ImportJob.library_id == library.library_id, ImportJob.status.in_(ACTIVE))
        # The first statement of its transaction: it waits for (and then sees) another scheduler's claim.
        claimed = session.exec(update(LibraryFolder).where(
            LibraryFolder.id == library.library_id, LibraryFolder.scan_every_hours == library.hours,
            LibraryFolder.next_scan_at == library.next_scan_at, ~active.exists(),
        ).values(next_scan_at=now + timedelta(hours=library.hours)))
        if claimed.rowcount != 1:
            session.rollback()
            return None
        return submit(session, Path(library.path), f"Scheduled scan of {library.path}", SCHEDULER,
                      library_id=library.library_id)


def scan_due(engine: sa.Engine, now: datetime | None = None) -> list[int]:
    """Queue a scan of every library that is due; the ids of the jobs queued."""
    now = now or utc_now()
    with Session(engine) as session:
        found = due(session, now)
    queued: list[int] = []
    for library in found:
        try:
            job = queue_scan(engine, library, now)
        except sa.exc.SQLAlchemyError:  # this library waits for the next minute; the others go on
            logger.exception("Could not queue the scheduled scan of %s", library.path)
            continue
        if job is not None:
            queued.append(job.id)
    logger.info("Scheduled scans: %d queued%s", len(queued), f" (jobs {queued})" if queued else "")
    return queued
