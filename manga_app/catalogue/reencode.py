"""`python -m manga_app.catalogue reencode`: give the pages and covers already in
the media store the derivatives today's importer writes (the AVIF copies of
issue 37), and wide pages their high-DPI AVIF (which the import leaves to
it: HIDPI_WIDTH), from their stored originals, in the import's worker processes.

- **Reading goes on.** Only missing files are written, each whole (a temp
  file renamed into place) under a name nothing published yet points to;
  no existing file changes. The published manifests name the new files only
  once every page has them: at the end the store is marked
  (media.AVIF_MARKER) and the catalogue published again. A page's high-DPI
  copy is named as soon as it exists (`page.hidpi`, set here: the next
  publish rewrites its series), whatever the other pages' state.
- **After imports.** The job consumer starts one after an import that
  brought wide pages (start_in_background); a run that finds pages imported
  meanwhile does them too before it ends.
- **Resumable.** What is done is what exists: interrupted (Ctrl-C, kill -9),
  the next run skips every page already complete and goes on with the rest
  (the temp files a kill leaves are swept first, as an import does).
- **Progress**: a line every few seconds with the share done and the time
  left (from the pace so far).

Exit status: 0 done (or another reencode is at work on the store: this one
leaves it to that one), 1 some originals could not be re-encoded (named; the
store is not marked, run again once fixed), 130 interrupted.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.media import (
    MediaStore,
    WriteLog,
    cover_targets,
    hidpi_path,
    original_path,
    page_targets,
    store_page_detached,
)
from manga_app.catalogue.page_images import AVIF_MAX_SIDE, HIDPI_MIN_WIDTH, HIDPI_WIDTH
from manga_app.catalogue.models import Page, Series
from manga_app.catalogue.pool import process_pool
from manga_app.catalogue.sweep import import_lock

__all__ = ["Job", "ReencodeResult", "add_parser", "pending_jobs", "reencode"]

PLAIN_EVERY_SECONDS = 5.0
REENCODE_LOCK = ".reencode.lock"
_FLAG_BATCH = 500
_ROUNDS = 3  # passes over what is pending: pages imported during one are done by the next
# Pages that may get a high-DPI copy and have none yet: wide enough, and (scaled to HIDPI_WIDTH,
# never enlarged) no taller than an AVIF may be (media_paths.hidpi_path), so a tall strip is not
# looked for after every import.
_WANTS_HIDPI = (
    Page.hidpi == sa.false(),
    Page.width >= HIDPI_MIN_WIDTH,
    Page.height * sa.case((Page.width < HIDPI_WIDTH, Page.width), else_=HIDPI_WIDTH) <= AVIF_MAX_SIDE * Page.width,
)


@dataclass(frozen=True)
class Job:
    """One stored original missing some derivatives: as a page, a cover, or both."""

    key: str
    original: str  # relative to the media root
    page: bool
    cover: bool


@dataclass
class ReencodeResult:
    total: int = 0
    done: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (original, why)


def pending_jobs(engine: sa.Engine, media: MediaStore) -> list[Job]:
    """Every page and cover whose derivatives are not all in the store, in key order. In a store
    with every AVIF copy (marked), only the wide pages not yet known to have their high-DPI one."""
    wide_only = media.has_avif()
    with Session(engine) as session:
        query = select(Page.media_key, Page.ext, Page.width, Page.height)
        if wide_only:
            query = query.where(*_WANTS_HIDPI)
        pages = {key: (ext, width, height) for key, ext, width, height in session.exec(query.distinct())}
        covers = set() if wide_only else {
            key for key in session.exec(select(Series.cover_key).where(Series.cover_key.is_not(None)))}
    jobs = []
    for key in sorted(pages.keys() | covers):
        page = key in pages and not _complete(media, page_targets(key, pages[key][1], pages[key][2], hidpi=True))
        cover = key in covers and not _complete(media, cover_targets(key))
        if not (page or cover):
            continue
        original = original_path(key, pages[key][0]) if key in pages else _cover_original(media, key)
        jobs.append(Job(key, original or "", page, cover))
    return jobs


def reencode(media: MediaStore, jobs: list[Job], workers: int,
             on_progress: Callable[[ReencodeResult], None] = lambda _: None) -> ReencodeResult:
    """Write what `jobs` lack, `workers` processes at a time (a few pages in flight each)."""
    result = ReencodeResult(total=len(jobs))
    pool = process_pool(workers)
    queue: Iterator[Job] = iter(jobs)
    running: dict[Future, Job] = {}
    try:
        while True:
            while len(running) < workers * 2 and (job := next(queue, None)) is not None:
                running[pool.submit(_reencode_one, str(media.root), job)] = job
            if not running:
                break
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                job, error = running.pop(future), future.result()
                if error:
                    result.failed.append((job.original or job.key, error))
                result.done += 1
            on_progress(result)
    finally:
        for future in running:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
    return result


def _reencode_one(root: str, job: Job) -> str | None:
    """In a worker: the job's missing derivatives from its original; the error, or None."""
    if not job.original:
        return "the original is missing from the media store"
    try:
        data = (Path(root) / job.original).read_bytes()
    except OSError as exc:
        return f"cannot read the original: {exc}"
    if job.page:
        return store_page_detached(root, data, job.cover, WriteLog(), hidpi=True).error
    try:
        MediaStore(Path(root)).store_cover(data, WriteLog())
    except Exception as exc:  # noqa: BLE001 - reported as this cover's failure
        return f"{type(exc).__name__}: {exc}"
    return None


def flag_hidpi(engine: sa.Engine, media: MediaStore) -> int:
    """Mark the pages whose high-DPI AVIF is in the store (the publisher names it from then on);
    returns how many distinct images were newly marked."""
    with Session(engine) as session:
        rows = session.exec(select(Page.media_key, Page.width, Page.height)
                            .where(*_WANTS_HIDPI).distinct())
        keys = sorted({key for key, width, height in rows
                       if (rel := hidpi_path(key, width, height)) and media.path(rel).exists()})
        for start in range(0, len(keys), _FLAG_BATCH):
            session.exec(sa.update(Page).where(Page.media_key.in_(keys[start:start + _FLAG_BATCH]))
                         .values(hidpi=True))
        session.commit()
    return len(keys)


def wide_pages_waiting(engine: sa.Engine) -> bool:
    """Whether some page may still want its high-DPI copy (a reencode would look)."""
    with Session(engine) as session:
        return session.exec(select(Page.id).where(*_WANTS_HIDPI).limit(1)).first() is not None


def start_in_background(args: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen:
    """`reencode` with `args` as a process of its own at idle priority (CPU time nothing else
    wants: readers and imports go first), its output appended to `log`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        process = subprocess.Popen([sys.executable, "-m", "manga_app.catalogue", "reencode", *args],
                                   stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                   start_new_session=True)
    # Set from here (no preexec_fn in a threaded process): Python takes far longer to start than
    # this, so the pool's processes, forked later, inherit it.
    try:
        os.sched_setscheduler(process.pid, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, process.pid, 19)
    return process


def _complete(media: MediaStore, targets: list[tuple[str, int]]) -> bool:
    return all(media.path(rel).exists() for rel, _ in targets)


def _cover_original(media: MediaStore, key: str) -> str | None:
    """A cover stored on its own (not a page): its original, whatever its extension."""
    for path in (media.root / key[:2]).glob(f"{key}.*"):
        return f"{key[:2]}/{path.name}"
    return None


# ---------------------------------------------------------------------------
# The command line (cli.py dispatches here)
# ---------------------------------------------------------------------------


def add_parser(commands, db_help: str, out_help: str, base_help: str) -> None:
    cmd = commands.add_parser("reencode", help="write the AVIF copies the pages already imported lack (resumable)")
    cmd.add_argument("--db", help=db_help)
    cmd.add_argument("--media", type=Path, help="media store directory (default: DATA_DIR/media)")
    cmd.add_argument("--out", type=Path, help=out_help)
    cmd.add_argument("--media-base-url", help=base_help)
    cmd.add_argument("--workers", type=int, default=None, help="worker processes (default: the CPU count)")
    cmd.add_argument("--no-publish", action="store_true", help="do not publish at the end")


def run(engine: sa.Engine, media: MediaStore, workers: int) -> int | None:
    """Re-encode; returns 0, 1 or 130 (see the module docstring). The caller publishes on 0.
    None: another reencode is at work on this store (a second `make run` while the first one's is
    still going); this one does nothing, and that one publishes when it is done."""
    media.root.mkdir(parents=True, exist_ok=True)
    with (media.root / REENCODE_LOCK).open("a") as alone:
        try:
            fcntl.flock(alone, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("another reencode is running on this media store; it publishes the AVIF copies when done",
                  file=sys.stderr)
            return None
        return _run_alone(engine, media, workers)


def _run_alone(engine: sa.Engine, media: MediaStore, workers: int) -> int:
    failed: dict[str, str] = {}
    done = 0
    with import_lock(engine, media):
        for round_ in range(_ROUNDS):
            jobs = [job for job in pending_jobs(engine, media) if (job.original or job.key) not in failed]
            if not jobs and round_:
                break
            print(f"{len(jobs)} of the store's images lack derivatives; {workers} worker processes", file=sys.stderr)
            shown = _Progress()
            try:
                result = reencode(media, jobs, workers, shown)
            except KeyboardInterrupt:
                flag_hidpi(engine, media)
                print(f"Interrupted after {shown.done} of {len(jobs)}: what was written is complete and kept, "
                      "nothing was published. Run reencode again to go on.", file=sys.stderr)
                return 130
            failed.update(result.failed)
            done += result.done - len(result.failed)
            flag_hidpi(engine, media)
    for original, why in failed.items():
        print(f"FAILED {original}: {why}", file=sys.stderr)
    if failed:
        print(f"{len(failed)} images could not be re-encoded; " + (
            "the high-DPI copies made are published" if media.has_avif() else
            "the AVIF copies are not published until every image has them"), file=sys.stderr)
        return 1
    media.mark_avif()
    print(f"Re-encoded {done} images; the store has every derivative", file=sys.stderr)
    return 0


class _Progress:
    """A line with the share done and the time left, every PLAIN_EVERY_SECONDS (and at the end)."""

    def __init__(self) -> None:
        self.started = self.printed = time.monotonic()
        self.done = 0

    def __call__(self, result: ReencodeResult) -> None:
        self.done = result.done
        now = time.monotonic()
        if now - self.printed < PLAIN_EVERY_SECONDS and result.done < result.total:
            return
        self.printed = now
        elapsed = now - self.started
        left = elapsed / result.done * (result.total - result.done) if result.done else 0.0
        print(f"reencode: {result.done}/{result.total} ({100 * result.done // max(result.total, 1)} %), "
              f"{elapsed:.0f} s elapsed, about {left:.0f} s left", file=sys.stderr, flush=True)
