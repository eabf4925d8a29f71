"""A running job's progress, written to its row for /admin/jobs: chapters
and pages done, the share of the work, time left (the CLI's own reckoning,
catalogue.progress.ImportProgress), the file being read, and each settled
file's outcome. Written at most every FLUSH_SECONDS, which is also when the
job learns that it is cancelled or that its consumer is stopping."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import sqlalchemy as sa
from rich.console import Console
from sqlmodel import Session

from manga_app.catalogue.models import utc_now
from manga_app.catalogue.progress import ImportProgress
from manga_app.catalogue.scanner import Candidate
from manga_app.jobs.models import ImportJob, JobFile

__all__ = ["FLUSH_SECONDS", "JobCancelled", "JobInterrupted", "JobTracker", "relative"]

FLUSH_SECONDS = 1.0


# BaseExceptions, like Ctrl-C: the importer passes them through (abandoning
# and cleaning up what it had read ahead) instead of failing one chapter.
class JobCancelled(BaseException):
    """The operator cancelled the job."""


class JobInterrupted(BaseException):
    """The consumer is stopping (the server stops): the job resumes when it starts again."""


def relative(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root)) or path.name
    except ValueError:
        return str(path)


class JobTracker:
    """The callbacks import_source takes, for job `job_id`."""

    def __init__(self, engine: sa.Engine, job_id: int, root: Path, stopping: threading.Event) -> None:
        self.engine, self.job_id, self.root, self.stopping = engine, job_id, root, stopping
        self.progress = ImportProgress(Console(quiet=True))
        self.failures: dict[Path, str] = {}
        self.settled: list[JobFile] = []
        self.current = ""
        self.flushed = 0.0

    def on_start(self, total: int) -> None:
        self.progress.on_start(total)
        self.flush(force=True)

    def on_page(self, candidate: Candidate, pages_done: int, pages: int) -> None:
        self.progress.on_page(candidate, pages_done, pages)
        self.current = relative(candidate.path, self.root)
        self.flush()

    def on_failure(self, path: Path, reason: str) -> None:
        self.failures[path] = reason

    def on_progress(self, candidate: Candidate) -> None:
        self.progress.on_progress(candidate)
        reason = self.failures.pop(candidate.path, None)
        self.settled.append(JobFile(job_id=self.job_id, path=relative(candidate.path, self.root),
                                    outcome="imported" if reason is None else "failed", reason=reason or ""))
        self.flush()

    def flush(self, *, force: bool = False, check: bool = True) -> None:
        """Write the progress; with `check`, raise when the job must stop (between chapters or pages)."""
        now = time.monotonic()
        if not force and now - self.flushed < FLUSH_SECONDS:
            return
        self.flushed = now
        progress = self.progress
        with Session(self.engine) as session:
            job = session.get(ImportJob, self.job_id)
            job.chapters_total, job.chapters_done, job.pages_done = progress.total, progress.chapters, progress.pages
            job.share = min(sum(progress.done.values()) / max(progress.total, 1), 1.0)
            job.seconds_left = progress.remaining()
            job.current, job.heartbeat_at = self.current[:500], utc_now()
            session.add_all(self.settled)
            session.add(job)
            session.commit()
            cancelled = job.cancel_requested
        self.settled = []
        if not check:
            return
        if cancelled:
            raise JobCancelled()
        if self.stopping.is_set():
            raise JobInterrupted()
