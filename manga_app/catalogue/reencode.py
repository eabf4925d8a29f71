"""`python -m manga_app.catalogue reencode`: give the pages and covers already in
the media store the derivatives today's importer writes (the AVIF copies of
issue 37), from their stored originals, in the import's worker processes.

- **Reading goes on.** Only missing files are written, each whole (a temp
  file renamed into place) under a name nothing published yet points to;
  no existing file changes. The published manifests name the new files only
  once every page has them: at the end the store is marked
  (media.AVIF_MARKER) and the catalogue published again.
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

import fcntl
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
    original_path,
    page_targets,
    store_page_detached,
)
from manga_app.catalogue.models import Page, Series
from manga_app.catalogue.pool import process_pool
from manga_app.catalogue.sweep import import_lock

__all__ = ["Job", "ReencodeResult", "add_parser", "pending_jobs", "reencode"]

PLAIN_EVERY_SECONDS = 5.0
REENCODE_LOCK = ".reencode.lock"


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
    """Every page and cover whose derivatives are not all in the store, in key order."""
    with Session(engine) as session:
        pages = {key: (ext, width, height) for key, ext, width, height in
                 session.exec(select(Page.media_key, Page.ext, Page.width, Page.height).distinct())}
        covers = {key for key in session.exec(select(Series.cover_key).where(Series.cover_key.is_not(None)))}
    jobs = []
    for key in sorted(pages.keys() | covers):
        page = key in pages and not _complete(media, page_targets(key, pages[key][1], pages[key][2]))
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
        return store_page_detached(root, data, job.cover, WriteLog()).error
    try:
        MediaStore(Path(root)).store_cover(data, WriteLog())
    except Exception as exc:  # noqa: BLE001 - reported as this cover's failure
        return f"{type(exc).__name__}: {exc}"
    return None


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
    with import_lock(engine, media):
        jobs = pending_jobs(engine, media)
        print(f"{len(jobs)} of the store's images lack derivatives; {workers} worker processes", file=sys.stderr)
        shown = _Progress()
        try:
            result = reencode(media, jobs, workers, shown)
        except KeyboardInterrupt:
            print(f"Interrupted after {shown.done} of {len(jobs)}: what was written is complete and kept, "
                  "nothing was published. Run reencode again to go on.", file=sys.stderr)
            return 130
    for original, why in result.failed:
        print(f"FAILED {original}: {why}", file=sys.stderr)
    if result.failed:
        print(f"{len(result.failed)} of {len(jobs)} could not be re-encoded; the AVIF copies are not "
              "published until every image has them", file=sys.stderr)
        return 1
    media.mark_avif()
    print(f"Re-encoded {result.done} images; the store has every derivative", file=sys.stderr)
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
