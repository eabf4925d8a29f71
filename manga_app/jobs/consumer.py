"""The job consumer: `python -m manga_app.jobs`, which manga_app.serve starts
beside the web server (and stops with it), or which runs on its own machine
when the site is scaled out on Redis.

Why a process of its own rather than a thread of the web server: an import
is CPU work (it reads archives and feeds a pool of page processes) that
would stall the server's event loop and every visitor's events; the server
may run several workers (WEB_CONCURRENCY), which would each start a
consumer; and a decoder that crashes takes down the consumer, not the site.
One worker thread: imports run one at a time (each uses every CPU already).

First the jobs its last run left are recovered (recovery.py), then huey's
consumer runs, with two periodic tasks: every minute, a scan of each
library whose scheduled scan is due is queued (schedule.py); every few
minutes, jobs whose consumer on another machine stopped writing its
heartbeat are resumed. SIGTERM and SIGINT stop it gracefully: a running job gives
up the chapter it is on (nothing of it is kept) and goes back to the queue."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

from huey.consumer import ConsumerStopped

from manga_app.catalogue.media import MediaStore
from manga_app.core.config import get_settings
from manga_app.core.db import migrate, shared_engine
from manga_app.jobs import runner
from manga_app.jobs.queue import enqueue, job_queue
from manga_app.jobs.recovery import recover

logger = logging.getLogger("manga_app.jobs")
IDLE_POLL_SECONDS = 1.0


def _also_stop_the_job(handler: Callable | int | None) -> Callable:
    def handle(signum, frame):
        runner.STOPPING.set()
        if callable(handler):
            handler(signum, frame)
    return handle


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s jobs %(levelname)s %(message)s")
    migrate()
    for job_id in recover(shared_engine(), MediaStore(get_settings().media_dir)):
        enqueue(job_id)
    # An idle consumer asks the queue for work at most every IDLE_POLL_SECONDS
    # (huey's default backs off to 10 s: an operator confirming an upload after
    # a long idle spell waited that long before the import began; one SQLite or
    # Redis read a second costs nothing).
    consumer = job_queue().create_consumer(workers=1, worker_type="thread", graceful_signal="TERM",
                                           periodic=True, check_worker_health=True, max_delay=IDLE_POLL_SECONDS)
    consumer.start()  # installs huey's signal handlers; ours wrap them
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _also_stop_the_job(signal.getsignal(signum)))
    logger.info("Job consumer running (%s)", type(job_queue()).__name__)
    checked = time.monotonic()
    while True:  # huey's Consumer.run() after its start()
        try:
            checked = consumer.loop(checked)
        except ConsumerStopped:
            break
    runner.stop_hidpi()
    logger.info("Job consumer stopped")


@contextlib.contextmanager
def consumer_beside() -> Iterator[None]:
    """The consumer as a child process for as long as the server runs
    (JOBS_CONSUMER=0: none, it runs elsewhere). Stopped with SIGTERM: a
    running job goes back to the queue first."""
    if os.environ.get("JOBS_CONSUMER", "1") == "0":
        yield
        return
    process = subprocess.Popen([sys.executable, "-m", "manga_app.jobs"])
    try:
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()  # what it left is recovered when it starts again
            process.wait()
