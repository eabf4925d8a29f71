"""When the consumer starts: jobs whose consumer died (the server was killed
or the machine went down) are resumed, or marked failed with the reason
after MAX_ATTEMPTS starts; then the media an interrupted import wrote and
did not commit is swept (catalogue.sweep, when no import runs). A job never
stays "running" without a consumer, and is never lost: queued ones are
handed to the queue again (a message that is still there runs once: the
runner claims a job only while it is queued)."""

from __future__ import annotations

import os
import socket
from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.models import utc_now
from manga_app.catalogue.sweep import import_lock
from manga_app.jobs.models import ImportJob

__all__ = ["MAX_ATTEMPTS", "recover"]

MAX_ATTEMPTS = 3
# A job on another machine whose consumer wrote nothing for this long is dead.
STALE_AFTER = timedelta(minutes=2)


def _dead(job: ImportJob) -> bool:
    host, _, pid = job.worker.rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass
        if int(pid) == os.getpid():
            return True
    return job.heartbeat_at is None or utc_now() - job.heartbeat_at > STALE_AFTER


def recover(engine: sa.Engine, media: MediaStore | None) -> list[int]:
    """Settle the jobs interrupted with their consumer; the ids of the jobs to queue.

    At the consumer's start (`media` given): every queued job, and the media
    store swept. Every few minutes after (no `media`: the store is not read
    through again): only the jobs it just resumed, those of a consumer on
    another machine that stopped writing (STALE_AFTER)."""
    resumed: list[int] = []
    with Session(engine) as session:
        for job in session.exec(select(ImportJob).where(ImportJob.status == "running")):
            if not _dead(job):
                continue
            kept = f"The {job.chapters_done} chapters settled before are complete and kept."
            if job.cancel_requested:
                job.status, job.summary = "cancelled", f"Cancelled; the server stopped meanwhile. {kept}"
            elif job.attempts >= MAX_ATTEMPTS:
                job.status = "failed"
                job.summary = (f"The server stopped during this job {job.attempts} times; it is not tried again. "
                               f"{kept} Start it again once the cause is found.")
            else:
                job.status = "queued"
                job.summary = "The server stopped during this job: resumed (finished chapters are skipped)."
            job.finished_at = utc_now() if job.status != "queued" else None
            job.seconds_left, job.current = None, ""
            session.add(job)
            if job.status == "queued":
                resumed.append(job.id)
        session.commit()
        if media is None:
            return resumed
        queued = list(session.exec(select(ImportJob.id).where(ImportJob.status == "queued").order_by(ImportJob.id)))
    with import_lock(engine, media):
        pass  # alone, it removes what a killed import left in the media store
    return queued
