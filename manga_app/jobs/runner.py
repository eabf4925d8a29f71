"""Run one import job: the importer's own code (catalogue.importer, as `make
import` runs it) with the job's tracker, then one publish. Each chapter is
its own transaction and the importer removes what it wrote for a chapter
it did not commit, so a job that stops (cancelled, failed, its server
stopping or killed) leaves complete chapters and no half of one."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import threading
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, delete, update

from manga_app.catalogue import placements, reencode
from manga_app.catalogue.importer import ImportReport, import_source
from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.models import utc_now
from manga_app.catalogue.publisher import publish_site
from manga_app.catalogue.scanner import SourceError
from manga_app.core.config import Settings
from manga_app.jobs.models import ImportJob, JobFile
from manga_app.jobs.tracker import JobCancelled, JobInterrupted, JobTracker, relative

__all__ = ["run_job", "this_worker"]

logger = logging.getLogger(__name__)
# Set when the consumer is asked to stop: a running job gives its chapter
# up and goes back to the queue (it resumes when the consumer starts again).
STOPPING = threading.Event()
HEARTBEAT_SECONDS = 20.0


def this_worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _claim(engine: sa.Engine, job_id: int) -> ImportJob | None:
    """The job, now running here; None when it is not queued (finished,
    cancelled, or taken by another consumer: a message queued twice runs once)."""
    with Session(engine) as session:
        claimed = session.exec(update(ImportJob).where(ImportJob.id == job_id, ImportJob.status == "queued")
                               .values(status="running", worker=this_worker(), heartbeat_at=utc_now(),
                                       started_at=sa.func.coalesce(ImportJob.started_at, utc_now()),
                                       attempts=ImportJob.attempts + 1))
        if claimed.rowcount == 1:  # a resumed job reports every file again
            session.exec(delete(JobFile).where(JobFile.job_id == job_id))
        session.commit()
        return session.get(ImportJob, job_id) if claimed.rowcount == 1 else None


def _finish(engine: sa.Engine, job_id: int, status: str, summary: str, files: list[JobFile] = ()) -> None:
    with Session(engine) as session:
        job = session.get(ImportJob, job_id)
        job.status, job.summary, job.seconds_left, job.current = status, summary, None, ""
        job.finished_at = utc_now() if status != "queued" else None
        if status == "done":
            job.share = 1.0
        session.add_all(files)
        session.add(job)
        session.commit()


def _final_files(engine: sa.Engine, job_id: int, root: Path, report: ImportReport) -> list[JobFile]:
    """What the report knows better than the live outcomes: the unchanged
    files (recorded as imported while settling), notes, warnings, removals."""
    unchanged = [relative(path, root) for path in report.skipped]
    with Session(engine) as session:
        for start in range(0, len(unchanged), 500):
            session.exec(update(JobFile).where(JobFile.job_id == job_id, JobFile.path.in_(unchanged[start:start + 500]),
                                               JobFile.outcome == "imported").values(outcome="unchanged"))
        session.commit()
    extra = [("note", report.notes), ("warning", report.warnings), ("removed", report.removed)]
    return [JobFile(job_id=job_id, path=relative(path, root), outcome=outcome, reason=reason)
            for outcome, rows in extra for path, reason in rows]


def _summary(report: ImportReport) -> str:
    parts = [f"{len(report.imported)} imported", f"{len(report.skipped)} unchanged", f"{len(report.failed)} failed"]
    if report.removed:
        parts.append(f"{len(report.removed)} removed (their files are gone)")
    return ", ".join(parts) + "."


def _publish(engine: sa.Engine, settings: Settings) -> str:
    try:
        with Session(engine) as session:
            publish_site(session=session, settings=settings)
    except (OSError, ValueError, sa.exc.SQLAlchemyError) as error:
        logger.exception("Publishing after an import job failed")
        return (f" Publishing failed ({error.__class__.__name__}): the site shows the import after the next "
                "publish (python -m manga_app.catalogue publish).")
    return " Published."


def _beat(engine: sa.Engine, job_id: int, stop: threading.Event) -> None:
    """The job's heartbeat, whatever it is doing (a long page, the publish):
    recovery on another machine takes a job without one for a dead one's."""
    while not stop.wait(HEARTBEAT_SECONDS):
        try:
            with Session(engine) as session:
                session.exec(update(ImportJob).where(ImportJob.id == job_id, ImportJob.status == "running")
                             .values(heartbeat_at=utc_now()))
                session.commit()
        except sa.exc.SQLAlchemyError:
            logger.warning("Job %s: could not write its heartbeat", job_id, exc_info=True)


def run_job(job_id: int, *, engine: sa.Engine, settings: Settings) -> str | None:
    """Run job `job_id` if it is queued; its final status, or None when it was not to run."""
    job = _claim(engine, job_id)
    if job is None:
        return None
    stop = threading.Event()
    threading.Thread(target=_beat, args=(engine, job_id, stop), daemon=True, name=f"job-{job_id}-heartbeat").start()
    try:
        return _run(job, engine, settings)
    finally:
        stop.set()


def _run(job: ImportJob, engine: sa.Engine, settings: Settings) -> str:
    job_id = job.id
    root = Path(job.source)
    if not root.exists():  # a library moved or unmounted since it was registered, or an upload swept
        _finish(engine, job_id, "failed", f"Cannot import {job.source}: it is no longer on the server "
                "(moved or unmounted?).")
        return "failed"
    tracker = JobTracker(engine, job_id, root if root.is_dir() else root.parent, STOPPING)
    try:
        report = import_source(root, engine=engine, media=MediaStore(settings.media_dir),
                               on_start=tracker.on_start, on_page=tracker.on_page, on_progress=tracker.on_progress,
                               on_failure=tracker.on_failure, skip=[settings.published_dir],
                               placements={root / path: p for path, p in placements.read(root).items()}
                               if root.is_dir() else None)
    except JobCancelled:
        done = tracker.progress.chapters
        _finish(engine, job_id, "cancelled", f"Cancelled. The {done} chapters settled before are complete and kept."
                + _publish(engine, settings))
        return "cancelled"
    except JobInterrupted:
        _finish(engine, job_id, "queued", "Stopped with the server; it resumes when the server starts again "
                "(finished chapters are skipped).")
        return "queued"
    except (SourceError, OSError) as error:
        _finish(engine, job_id, "failed", f"Cannot import {job.source}: {error}")
        return "failed"
    except Exception as error:  # noqa: BLE001 - the job says why it stopped, whatever it was
        logger.exception("Import job %s failed", job_id)
        _finish(engine, job_id, "failed", f"Unexpected error: {type(error).__name__}: {error}. "
                "The chapters imported before it are complete and kept.")
        return "failed"
    tracker.flush(force=True, check=False)  # the files settled since the last write
    files = _final_files(engine, job_id, tracker.root, report)
    if not (report.imported or report.skipped or report.failed):
        _finish(engine, job_id, "failed", f"No comics found in {job.source} (chapters are CBZ/ZIP, CBR/RAR, CB7/7z, "
                "EPUB or PDF files, or folders of page images).", files)
        return "failed"
    _finish(engine, job_id, "done", _summary(report) + _publish(engine, settings), files)
    _start_hidpi(engine, settings)
    return "done"


# The reencode this process started for the high-DPI copies (one at a time; it takes what the
# imports after it brought too, and another would leave the work to it anyway: reencode.run).
_hidpi_pass: subprocess.Popen | None = None


def _start_hidpi(engine: sa.Engine, settings: Settings) -> None:
    """Start a reencode in the background when pages the import brought want their high-DPI
    copy (the import itself makes only what readers need at once: its throughput stays)."""
    global _hidpi_pass
    if (_hidpi_pass is not None and _hidpi_pass.poll() is None) or not reencode.wide_pages_waiting(engine):
        return
    env = {**os.environ, "DATA_DIR": str(settings.data_dir)}
    if settings.content_key is not None:
        env["CONTENT_KEY"] = settings.content_key.get_secret_value()
    args = ["--db", engine.url.render_as_string(hide_password=False), "--media", str(settings.media_dir),
            "--out", str(settings.published_dir), "--media-base-url", settings.media_base_url]
    _hidpi_pass = reencode.start_in_background(args, settings.data_dir / "reencode.log", env)
    logger.info("High-DPI copies are being made in the background (%s)", settings.data_dir / "reencode.log")


def stop_hidpi() -> None:
    """End the background reencode with this process (it goes on where it stopped next time)."""
    if _hidpi_pass is not None and _hidpi_pass.poll() is None:
        _hidpi_pass.terminate()
        _hidpi_pass.wait()
