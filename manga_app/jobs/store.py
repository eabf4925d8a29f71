"""Jobs and library folders as the console asks for them: submit an import
(its row first, then its message on the queue), cancel one, list them with
their files; register, list and remove library folders, scan one. Each takes
a session; each change is recorded in the audit log in its transaction.
Refusals are English messages (`Refused`), never half a change."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import audit
from manga_app.catalogue.models import utc_now
from manga_app.jobs.models import FINISHED, ImportJob, JobFile, LibraryFolder
from manga_app.jobs.queue import enqueue

__all__ = ["Refused", "add_library", "cancel", "files_of", "libraries", "recent", "remove_library", "scan", "submit"]

MAX_PATH = 4096


class Refused(ValueError):
    """Nothing changed; the message says why, in English."""


def submit(session: Session, source: Path, label: str, actor, library_id: int | None = None) -> ImportJob:
    """Queue an import of `source`. The row is committed before the message is
    sent; a queue that cannot be reached fails the job with the reason."""
    job = ImportJob(source=str(source), label=label[:300], library_id=library_id, requested_by=actor.email)
    session.add(job)
    session.flush()
    audit.record(session, actor, "import-job", f"job {job.id}: {label}", "", str(source))
    session.commit()
    try:
        enqueue(job.id)
    except Exception as error:  # noqa: BLE001 - any failure of the queue is the job's reason
        job.status, job.finished_at = "failed", utc_now()
        job.summary = f"Could not be queued ({type(error).__name__}: {error}); nothing was imported."
        session.add(job)
        session.commit()
    session.refresh(job)
    return job


def cancel(session: Session, job_id: int, actor) -> str:
    job = session.get(ImportJob, job_id)
    if job is None:
        raise Refused(f"There is no job {job_id}.")
    if job.status in FINISHED:
        raise Refused(f"Job {job_id} has already finished ({job.status}).")
    if job.status == "queued":
        job.status, job.finished_at, job.summary = "cancelled", utc_now(), "Cancelled before it started; nothing was imported."
    job.cancel_requested = True
    session.add(job)
    audit.record(session, actor, "cancel-job", f"job {job_id}: {job.label}", "", job.status)
    session.commit()
    if job.status == "cancelled":
        return f"Job {job_id} cancelled."
    return f"Job {job_id} stops after the page it is on; the chapters finished before are kept."


def recent(session: Session, limit: int = 50) -> list[ImportJob]:
    return list(session.exec(select(ImportJob).order_by(ImportJob.id.desc()).limit(limit)))


def files_of(session: Session, job_id: int, limit: int = 500) -> tuple[dict[str, int], list[JobFile]]:
    """Counts by outcome, and the files, failures first."""
    counts = dict(session.exec(select(JobFile.outcome, sa.func.count(JobFile.id)).where(JobFile.job_id == job_id)
                               .group_by(JobFile.outcome)).all())
    order = sa.case((JobFile.outcome == "failed", 0), (JobFile.outcome == "warning", 1), else_=2)
    rows = session.exec(select(JobFile).where(JobFile.job_id == job_id).order_by(order, JobFile.id).limit(limit))
    return counts, list(rows)


def _folder(text: str, data_dir: Path) -> Path:
    text = text.strip()
    if not text:
        raise Refused("Give the folder's full path on the server, e.g. /srv/comics.")
    if len(text) > MAX_PATH or "\x00" in text:
        raise Refused("That is not a path.")
    path = Path(text)
    if not path.is_absolute():
        raise Refused(f"{text} is not a full path: start it with /.")
    path = path.resolve()
    if not path.is_dir():
        raise Refused(f"{path} is not a folder on the server." if not path.exists() else f"{path} is a file, not a folder.")
    if not os.access(path, os.R_OK | os.X_OK):
        raise Refused(f"The server may not read {path}: give it read access first.")
    data = data_dir.resolve()
    if path == data or data in path.parents or path in data.parents:
        raise Refused(f"{path} holds the site's own data ({data}): choose the folder your comics are in.")
    return path


def add_library(session: Session, text: str, data_dir: Path, actor) -> LibraryFolder:
    path = _folder(text, data_dir)
    if session.exec(select(LibraryFolder).where(LibraryFolder.path == str(path))).first():
        raise Refused(f"{path} is already a library.")
    folder = LibraryFolder(path=str(path), added_by=actor.email)
    session.add(folder)
    audit.record(session, actor, "add-library", f"library {path}", "", str(path))
    session.commit()
    session.refresh(folder)
    return folder


def remove_library(session: Session, library_id: int, actor) -> str:
    folder = session.get(LibraryFolder, library_id)
    if folder is None:
        raise Refused("That library is not registered any more.")
    session.delete(folder)
    audit.record(session, actor, "remove-library", f"library {folder.path}", folder.path, "")
    session.commit()
    return f"{folder.path} is no longer a library; what was imported from it stays on the site."


def libraries(session: Session) -> list[tuple[LibraryFolder, ImportJob | None]]:
    """Each library folder with its latest job."""
    folders = list(session.exec(select(LibraryFolder).order_by(LibraryFolder.path)))
    latest = {job.library_id: job for job in session.exec(
        select(ImportJob).where(ImportJob.library_id.in_([f.id for f in folders])).order_by(ImportJob.id))}
    return [(folder, latest.get(folder.id)) for folder in folders]


def scan(session: Session, library_id: int, actor) -> ImportJob:
    folder = session.get(LibraryFolder, library_id)
    if folder is None:
        raise Refused("That library is not registered any more.")
    running = session.exec(select(ImportJob).where(ImportJob.library_id == library_id,
                                                   ImportJob.status.in_(("queued", "running")))).first()
    if running is not None:
        raise Refused(f"{folder.path} is being scanned already (job {running.id}).")
    if not Path(folder.path).is_dir():
        raise Refused(f"{folder.path} is not a folder on the server any more (moved or unmounted?).")
    if folder.scan_every_hours:  # its next scheduled scan is an interval after this one
        folder.next_scan_at = utc_now() + timedelta(hours=folder.scan_every_hours)
        session.add(folder)
    return submit(session, Path(folder.path), f"Scan of {folder.path}", actor, library_id=library_id)
