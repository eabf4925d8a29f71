"""The job tables (migration 0017): an import job with its progress, each
file's outcome, and the library folders the operator registered, with
their scan schedule (migration 0018)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from manga_app.catalogue.models import UTCDateTime, utc_now

__all__ = ["JOB_STATES", "FINISHED", "ImportJob", "JobFile", "LibraryFolder"]

# queued -> running -> done | failed | cancelled; an interrupted running job
# goes back to queued (resumed) or to failed (recovery.py).
JOB_STATES = ("queued", "running", "done", "failed", "cancelled")
FINISHED = ("done", "failed", "cancelled")


class ImportJob(SQLModel, table=True):
    __tablename__ = "import_job"
    __table_args__ = {"extend_existing": True}

    id: int | None = Field(default=None, primary_key=True)
    # What is imported: a folder or one archive on the server.
    source: str = Field(sa_type=sa.Text)
    # Why, as the operator reads it: "Scan of library 'x'", "Upload of 3 files".
    label: str = Field(default="", max_length=300)
    library_id: int | None = Field(default=None, index=True)
    status: str = Field(default="queued", max_length=16, index=True)
    requested_by: str = Field(default="", max_length=254)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # The running consumer ("host:pid") and when it last wrote: recovery
    # tells a job that is running from one whose consumer died.
    worker: str = Field(default="", max_length=300)
    heartbeat_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    attempts: int = Field(default=0)
    cancel_requested: bool = Field(default=False)
    chapters_total: int = Field(default=0)
    chapters_done: int = Field(default=0)
    pages_done: int = Field(default=0)
    # Share of the work done, 0..1 (a chapter counts by its pages done).
    share: float = Field(default=0.0)
    seconds_left: float | None = Field(default=None)
    current: str = Field(default="", max_length=500)
    # The outcome in one line, or why the job failed.
    summary: str = Field(default="", sa_type=sa.Text)


class JobFile(SQLModel, table=True):
    """One file's outcome in a job: imported, unchanged, failed (with its
    reason), note (left out on purpose), removed (its file is gone)."""

    __tablename__ = "import_job_file"
    __table_args__ = {"extend_existing": True}

    id: int | None = Field(default=None, primary_key=True)
    job_id: int = Field(foreign_key="import_job.id", index=True, ondelete="CASCADE")
    path: str = Field(sa_type=sa.Text)
    outcome: str = Field(max_length=16)
    reason: str = Field(default="", sa_type=sa.Text)


class LibraryFolder(SQLModel, table=True):
    """A folder on the server the operator registered; a scan imports it,
    on demand and every `scan_every_hours` (0: never by itself; schedule.py)."""

    __tablename__ = "library_folder"
    __table_args__ = {"extend_existing": True}

    id: int | None = Field(default=None, primary_key=True)
    path: str = Field(sa_type=sa.Text, unique=True)
    added_by: str = Field(default="", max_length=254)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    scan_every_hours: int = Field(default=0)
    # When the scheduler scans it next (None when off); moved on when a scan is queued.
    next_scan_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
