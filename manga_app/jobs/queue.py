"""The job queue: huey. By default SqliteHuey in DATA_DIR/jobs.sqlite3, so
`make run` has nothing more to start; RedisHuey on REFLEX_REDIS_URL when the
site is scaled out (several web workers or machines already need that Redis
for their state; a PostgreSQL deployment is one of those, and uses the same
Redis rather than a second queue in the database). The queue only carries
job ids: what a job is and how far it got live in the site's database
(models.py), so a message lost with a stopped consumer loses nothing
(recovery.py queues the job again)."""

from __future__ import annotations

import os

from huey import Huey, RedisHuey, SqliteHuey, crontab
from huey.api import TaskWrapper

from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine

__all__ = ["enqueue", "job_queue"]

QUEUE_NAME = "manga-jobs"
RECOVER_EVERY_MINUTES = 3
_QUEUE: tuple[str, Huey, TaskWrapper] | None = None


def _run_import_job(job_id: int) -> str | None:
    from manga_app.jobs.runner import run_job  # the importer loads only where jobs run

    return run_job(job_id, engine=shared_engine(), settings=get_settings())


def _recover_stale() -> None:
    """Every few minutes: jobs whose consumer on another machine died go back to the queue."""
    from manga_app.jobs.recovery import recover

    for job_id in recover(shared_engine(), None):
        enqueue(job_id)


def _scan_libraries() -> None:
    """Every minute: a scan of each library whose scheduled scan is due (schedule.py)."""
    from manga_app.jobs.schedule import scan_due

    scan_due(shared_engine())


def job_queue() -> Huey:
    """The queue for the current settings, with its task and periodic tasks registered."""
    return _current()[1]


def _current() -> tuple[str, Huey, TaskWrapper]:
    global _QUEUE
    redis = os.environ.get("REFLEX_REDIS_URL", "")
    where = redis or str(get_settings().data_dir / "jobs.sqlite3")
    if _QUEUE is None or _QUEUE[0] != where:
        if redis:
            queue = RedisHuey(QUEUE_NAME, url=redis, results=False)
        else:
            get_settings().data_dir.mkdir(parents=True, exist_ok=True)
            queue = SqliteHuey(QUEUE_NAME, filename=where, results=False)
        queue.periodic_task(crontab(minute=f"*/{RECOVER_EVERY_MINUTES}"), name="recover_jobs")(_recover_stale)
        queue.periodic_task(crontab(), name="scan_libraries")(_scan_libraries)
        _QUEUE = (where, queue, queue.task(name="import_job")(_run_import_job))
    return _QUEUE


def enqueue(job_id: int) -> None:
    """Hand job `job_id` to the consumer (raises when the queue cannot be reached)."""
    _current()[2](job_id)
