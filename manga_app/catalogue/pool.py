"""The importer's page-worker processes, which never outlive the importer.

Workers are started by a forkserver (safe although the importer may run
threads), ignore Ctrl-C (the importer stops them in order, see importer.py)
and watch the importer: should it die without a word (`kill -9`, the OOM
killer), a watchdog thread in each worker ends the worker within a second,
whatever page it is on. What a dead import leaves in the media store is
swept by the next import (sweep.py).

Workers run at a lower priority (WORKER_NICENESS): an import, or a
re-encode, on the machine that serves the site takes the CPU readers leave
and never makes a reader's page wait for it; alone on the machine, it runs
as fast as before.

Each worker keeps to a CPU of its own when there are as many as workers
(pinned): SVT-AV1 hands a frame between its own threads (one per stage,
even at one thread of parallelism), and unpinned, a thread woken on the
CPU the other worker holds waited while its own CPU went idle. On the
2-core machine an import with AVIF copies took 4.9-5.2 s for 40 pages
unpinned and 4.7-4.8 s pinned (CPU time the same; `python -m benchmarks
bytes`); without AVIF copies, no difference.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

__all__ = ["WATCH_SECONDS", "WORKER_NICENESS", "process_pool"]

WATCH_SECONDS = 0.5
# Added to the importer's niceness (10: about a tenth of a busy core's share).
WORKER_NICENESS = 10
# Imported once by the forkserver, which every worker is forked from: the page code and
# FFmpeg's libraries (PyAV, for AVIF: 0.16 s and 26 MB a process) are loaded and shared,
# not loaded again by each worker of each import (the jobs process imports again and again).
FORKSERVER_PRELOAD = ["manga_app.catalogue.media", "av"]


def process_pool(workers: int) -> ProcessPoolExecutor:
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(FORKSERVER_PRELOAD)  # before its first pool starts it; later calls change nothing
    cpus = _allowed_cpus()
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_start_worker,
        # Each worker takes the next CPU (a counter: never blocks, whatever starts).
        initargs=(os.getpid(), cpus if 1 < workers <= len(cpus) else [], context.Value("i", 0)),
    )


def _allowed_cpus() -> list[int]:
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


def _start_worker(importer: int, cpus: list[int], started) -> None:
    """Ctrl-C reaches the whole process group: workers finish their page and report
    the files they wrote, and the importer stops and cleans up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(WORKER_NICENESS)
    if cpus:
        with started.get_lock():
            index, started.value = started.value, started.value + 1
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {cpus[index % len(cpus)]})
    parent = os.getppid()
    threading.Thread(target=_watch, args=(importer, parent), daemon=True).start()


def _watch(importer: int, parent: int) -> None:
    while _running(importer) and os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)  # the importer is gone: nobody will read this worker's results


def _running(pid: int) -> bool:
    """Whether `pid` is alive (a zombie, killed and not yet reaped, is not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
