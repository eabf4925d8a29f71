"""Import orchestration: candidates -> pages in the media store -> one transaction per chapter.

Per chapter: recognise it (skip when unchanged: same size and mtime as
recorded, else the same content hash), read metadata, write media, then
commit the rows in one transaction. Media is written before the commit so
the database never points at missing files. One bad file never stops the
import. A changed chapter is updated in place (id and views kept); another
file claiming a chapter number already imported from a file that still
exists fails as a duplicate (see upsert.save_chapter).

Pages are decoded and encoded by a pool of worker processes (the CPU-bound
part), while this process reads the archives, feeds the pool a bounded number
of pages ahead and settles chapters strictly in candidate order: duplicate
checks, the transaction and the report happen exactly as in a sequential run.

Cleanup on failure: the files a failed chapter created, and media that a
replaced chapter no longer uses, are removed by this process once no chapter
is in flight (a later chapter may already rely on a file an earlier one
created), and only when no committed row uses them. That happens at the end
of the import, on the way out after an error or interruption, and during long
imports whenever something is waiting to be removed (the pipeline is briefly
drained for it; see janitor.py). So neither half a chapter nor orphan files remain.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, Future
from pathlib import Path

import sqlalchemy as sa
from natsort import natsorted, ns
from sqlmodel import Session

from manga_app.catalogue import reconcile
from manga_app.catalogue.archives import DEFAULT_LIMITS, Limits
from manga_app.catalogue.comicinfo import SeriesSidecar
from manga_app.catalogue.janitor import Janitor
from manga_app.catalogue.media import MediaStore, WriteLog
from manga_app.catalogue.planning import Placement
from manga_app.catalogue.sweep import import_lock
from manga_app.catalogue.scanner import Candidate, scan
from manga_app.catalogue.import_pipeline import PAGES_AHEAD_PER_WORKER, ImportPipeline
from manga_app.catalogue.import_report import ImportFailure, ImportReport, stray_reason
from manga_app.catalogue.import_commit import ChapterCommit
from manga_app.catalogue.import_settle import ChapterSettling

__all__ = ["ImportFailure", "ImportReport", "import_source"]

# Below this much input, worker processes cost more to start than they save.
PARALLEL_MIN_BYTES = 4 * 1024 * 1024


def import_source(
    source: Path,
    *,
    engine: sa.Engine,
    media: MediaStore,
    limits: Limits = DEFAULT_LIMITS,
    on_start: Callable[[int], None] | None = None,
    on_progress: Callable[[Candidate], None] | None = None,
    on_page: Callable[[Candidate, int, int], None] | None = None,
    on_failure: Callable[[Path, str], None] | None = None,
    workers: int | None = None,
    skip: Iterable[Path] = (),
    placements: Mapping[Path, Placement] | None = None,
) -> ImportReport:
    """Import every chapter candidate under `source`; see ImportReport for the outcome.

    `on_start(chapters)` once, `on_page(candidate, pages done, pages)` as the
    pages of a chapter are processed, `on_failure(path, reason)` as soon as a
    chapter fails, `on_progress(candidate)` when a chapter
    is settled (imported, skipped or failed), in candidate order.
    `workers`: page-processing processes (default: one per CPU when the import
    is big enough to gain from them; 1 processes pages in this process).
    `skip`: folders never scanned, besides the media store (the published files).
    SourceError when `source` lies in one of them.
    `placements`: the operator's placement of some chapters (by path), which
    wins over their metadata and names (catalogue/placements.py).
    """
    strays: list[Path] = []
    candidates = scan(Path(source), skip=[media.root, *skip], strays=strays)
    if on_start:
        on_start(len(candidates))
    count = workers if workers is not None else _auto_workers(candidates)
    run = _ImportRun(engine=engine, media=media, limits=limits, workers=max(1, count))
    run.on_page, run.on_failure = on_page, on_failure
    run.placements = {Path(path).resolve(): placement for path, placement in (placements or {}).items()}
    for path in natsorted(strays, key=str, alg=ns.PATH | ns.IGNORECASE):
        run.report.notes.append((path, stray_reason(path)))
    with import_lock(engine, media) as swept:
        if swept:
            run.report.notes.append(
                (media.root, f"removed {swept} media files left by an import that did not finish")
            )
        run.run(candidates, on_progress)
        root = Path(source).resolve()
        _remove_gone(root if root.is_dir() else None, candidates, run)
    return run.report


def _remove_gone(root: Path | None, candidates: list[Candidate], run: _ImportRun) -> None:
    """The source tree is the truth: units whose files are gone go, in one
    transaction, and their media once nothing uses it (see reconcile.gone_units)."""
    try:
        with Session(run.engine) as session:
            removed, keys = reconcile.gone_units(session, root, [c.path for c in candidates])
            session.commit()
    except sa.exc.SQLAlchemyError as exc:
        run.report.warnings.append((root, f"could not remove units whose files are gone: {exc}"))
        return
    run.report.removed.extend(removed)
    run.janitor.discard_keys(keys, root)
    run._cleanup()


def _auto_workers(candidates: list[Candidate]) -> int:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if not cpus or cpus <= 1:
        return 1
    total = 0
    for candidate in candidates:
        try:
            if candidate.kind == "folder":
                total += sum(e.stat().st_size for e in os.scandir(candidate.path) if e.is_file())
            else:
                total += candidate.path.stat().st_size
        except OSError:
            continue
        if total >= PARALLEL_MIN_BYTES:
            return cpus
    return 1


class _ImportRun(ImportPipeline, ChapterSettling, ChapterCommit):
    """One import: the pipeline that reads ahead and feeds the page workers
    (import_pipeline.py), and each chapter settled in candidate order
    (import_settle.py) and committed (import_commit.py)."""

    def __init__(self, *, engine: sa.Engine, media: MediaStore, limits: Limits, workers: int):
        self.engine, self.media, self.limits, self.workers = engine, media, limits, workers
        self.report = ImportReport()
        self.claimed: dict[tuple[str, int], Path] = {}  # (series key, number) -> file, this run
        self.sidecars: dict[Path, SeriesSidecar | None] = {}
        self.placements: dict[Path, Placement] = {}  # the operator's, by resolved path
        self.cover_planned: dict[str, int] = {}  # series key -> lowest number making a cover
        self.janitor = Janitor(engine, media, self.report.warnings)
        self.pool: Executor | None = None
        self.active: dict[Future, int] = {}  # submitted, unfinished page tasks -> bytes
        # Every page task of a chapter not settled yet -> that chapter: what an
        # interruption must clean up, wherever it lands.
        self.unsettled: dict[Future, Path] = {}
        # Files written by the page being processed in this process (one worker),
        # known even if Ctrl-C stops it halfway.
        self.inline_log = WriteLog()
        self.inline_owner: Path | None = None
        self.max_ahead = workers * (1 + PAGES_AHEAD_PER_WORKER)
        self.max_chapters = 1 if workers == 1 else 4 * workers + 4
        self.draining = False
        self.settled_since_cleanup = 0
        self.cleaned_at = time.monotonic()
        self.warmed = workers == 1  # nothing to overlap with in one process
        self.on_page: Callable[[Candidate, int, int], None] | None = None
        self.on_failure: Callable[[Path, str], None] | None = None
