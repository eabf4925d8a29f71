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
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from natsort import natsorted, ns
from sqlmodel import Session, select

from manga_app.catalogue import library, reconcile, repository, upsert
from manga_app.catalogue.archives import (
    DEFAULT_LIMITS,
    ArchiveError,
    ChapterSource,
    Limits,
    SourceStat,
    content_hash,
    open_chapter,
    read_small_file,
    source_stat,
)
from manga_app.catalogue.comicinfo import MetadataError, SeriesSidecar, parse_series_json
from manga_app.catalogue.janitor import Janitor
from manga_app.catalogue.media import (
    MediaError,
    MediaStore,
    PageWrite,
    StoredImage,
    WriteLog,
    cover_targets,
    original_path,
    store_page_detached,
)
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import describe_unit, slugify, title_key
from manga_app.catalogue.pool import process_pool
from manga_app.catalogue.planning import ChapterPlan, PlanError, plan_chapter, read_comicinfo
from manga_app.catalogue.readings import readings_for
from manga_app.catalogue.sweep import import_lock
from manga_app.catalogue.scanner import Candidate, describe_entries, scan

__all__ = ["ImportFailure", "ImportReport", "import_source"]

COVER_MAX_BYTES = 32 * 1024 * 1024
# Below this much input, worker processes cost more to start than they save.
PARALLEL_MIN_BYTES = 4 * 1024 * 1024
PAGES_AHEAD_PER_WORKER = 8  # pages read and queued per worker, beyond the one it works on
MAX_BYTES_AHEAD = 256 * 1024 * 1024  # page bytes read but not yet processed
CLEANUP_EVERY_CHAPTERS = 64
CLEANUP_EVERY_SECONDS = 30.0


class ImportFailure(Exception):
    """This chapter is not imported; the message says why."""


@dataclass
class ImportReport:
    imported: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)
    warnings: list[tuple[Path, str]] = field(default_factory=list)
    # What was left out on purpose (entries that are not pages), for the record.
    notes: list[tuple[Path, str]] = field(default_factory=list)
    # Units removed because their file is gone from the source.
    removed: list[tuple[Path, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed


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
    """
    strays: list[Path] = []
    candidates = scan(Path(source), skip=[media.root, *skip], strays=strays)
    if on_start:
        on_start(len(candidates))
    count = workers if workers is not None else _auto_workers(candidates)
    run = _ImportRun(engine=engine, media=media, limits=limits, workers=max(1, count))
    run.on_page, run.on_failure = on_page, on_failure
    for path in natsorted(strays, key=str, alg=ns.PATH | ns.IGNORECASE):
        run.report.notes.append((path, _stray_reason(path)))
    with import_lock(engine, media) as swept:
        if swept:
            run.report.notes.append(
                (media.root, f"removed {swept} media files left by an import that did not finish")
            )
        run.run(candidates, on_progress)
        root = Path(source).resolve()
        _remove_gone(root if root.is_dir() else None, candidates, run)
    return run.report


def _stray_reason(path: Path) -> str:
    kind = f"a {path.suffix.lower()} file" if path.suffix else "a file without extension"
    return (
        f"not imported: {kind} is not a comic (chapters are CBZ/ZIP, CBR/RAR, CB7/7z, "
        "EPUB or PDF files, or folders of page images)"
    )


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


class _Inline(Executor):
    """Runs each task at once in this process (one worker: no processes to start).

    Ctrl-C is not an outcome of the task: it propagates at once, like in any
    other code of this process.
    """

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(exc)
        return future


@dataclass(eq=False)
class _Pending:
    """One candidate between being read and being settled."""

    candidate: Candidate
    warnings: list[tuple[Path, str]] = field(default_factory=list)
    notes: list[tuple[Path, str]] = field(default_factory=list)
    stat: SourceStat | None = None
    fingerprint: str = ""  # sha256 of the content ('' when the fast path knew it unchanged)
    known: bool = False  # unchanged since an earlier import: nothing to read
    pages_done: int = 0  # page tasks finished (counted by their done-callbacks)
    pages_reported: int = 0  # pages done, as last told to on_page
    early_failure: str | None = None  # reported before the duplicate check
    late_failure: str | None = None  # reported after it
    plan: ChapterPlan | None = None
    names: list[str] = field(default_factory=list)
    futures: list[Future] = field(default_factory=list)
    cover_page: bool = False  # the first page's worker also makes cover thumbnails
    source: ChapterSource | None = None
    closer: ExitStack | None = None
    # The unit this renamed or moved source already is (its pages are not read again).
    moved_from: int | None = None

    @property
    def fed(self) -> bool:
        """Every page that will be processed has been handed to the pool."""
        stopped = self.known or self.early_failure or self.late_failure
        return bool(stopped) or len(self.futures) == len(self.names)

    def close(self) -> None:
        if self.closer is not None:
            self.closer.close()
        self.closer = self.source = None


class _ImportRun:
    def __init__(self, *, engine: sa.Engine, media: MediaStore, limits: Limits, workers: int):
        self.engine, self.media, self.limits, self.workers = engine, media, limits, workers
        self.report = ImportReport()
        self.claimed: dict[tuple[str, int], Path] = {}  # (series key, number) -> file, this run
        self.sidecars: dict[Path, SeriesSidecar | None] = {}
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

    # -- the pipeline ---------------------------------------------------------------------

    def run(self, candidates: list[Candidate], on_progress) -> None:
        todo = iter(candidates)
        queue: deque[_Pending] = deque()
        self.pool = _Inline() if self.workers == 1 else process_pool(self.workers)
        try:
            more = True
            while True:
                more = self._fill(queue, todo, more)
                self._report_pages(queue)
                if not self.warmed and self.active:
                    # The first commit needs the reading dictionaries (half a second to
                    # load): load them while the workers start on the pages just queued.
                    self.warmed = True
                    readings_for("漢字")
                if not queue:
                    if self.draining:
                        self._cleanup()
                        continue
                    if not more:
                        break
                    continue
                head = queue[0]
                if head.fed:
                    queue.popleft()
                    self._settle(head)
                    if on_progress:
                        on_progress(head.candidate)
                else:
                    wait(list(self.active), return_when=FIRST_COMPLETED)
                    self._report_pages(queue)
        finally:
            self._abandon(queue)
            self.pool.shutdown(wait=True, cancel_futures=True)
            self._cleanup()

    def _report_pages(self, queue: deque[_Pending]) -> None:
        """Tell on_page about pages finished since the last call (the progress bar moves per page)."""
        for pending in queue:
            self._report_one(pending)

    def _report_one(self, pending: _Pending) -> None:
        done = pending.pages_done
        if self.on_page is not None and done > pending.pages_reported:
            pending.pages_reported = done
            self.on_page(pending.candidate, done, len(pending.names))

    def _fill(self, queue: deque[_Pending], todo: Iterable[Candidate], more: bool) -> bool:
        """Read ahead: prepare candidates and hand their pages to the pool, within bounds."""
        while True:
            feeding = queue[-1] if queue and not queue[-1].fed else None
            if feeding is not None:
                self.active = {f: n for f, n in self.active.items() if not f.done()}
                if self.active and (
                    len(self.active) >= self.max_ahead
                    or sum(self.active.values()) >= MAX_BYTES_AHEAD
                ):
                    return more
                self._feed(feeding)
                continue
            if not more or self.draining or len(queue) >= self.max_chapters:
                return more
            candidate = next(todo, None)
            if candidate is None:
                return False
            queue.append(self._prepare(candidate))

    def _prepare(self, candidate: Candidate) -> _Pending:
        pending = _Pending(candidate)
        try:
            self._open(pending)
        except ImportFailure as exc:
            pending.early_failure = str(exc)
        except ArchiveError as exc:
            pending.early_failure = str(exc)
        except OSError as exc:
            pending.early_failure = f"cannot read: {exc}"
        except Exception as exc:  # noqa: BLE001 - one unforeseen error must not stop the import
            pending.early_failure = f"unexpected error: {type(exc).__name__}: {exc}"
        if pending.early_failure:
            pending.close()
        return pending

    def _open(self, pending: _Pending) -> None:
        candidate = pending.candidate
        try:
            pending.stat = source_stat(candidate.path, candidate.kind)
        except (OSError, ArchiveError) as exc:
            raise ImportFailure(f"cannot read: {exc}") from None
        with Session(self.engine) as session:
            known = self._known(session, pending)
            if known is not None and not reconcile.moved(known, candidate.path):
                pending.known = True
                return
            pending.closer = ExitStack()
            pending.source = pending.closer.enter_context(
                open_chapter(candidate.path, candidate.kind, self.limits)
            )
            skipped = pending.source.skipped
            if skipped:
                pending.notes.append(
                    (
                        candidate.path,
                        f"skipped {len(skipped)} {'entry' if len(skipped) == 1 else 'entries'} "
                        f"that are not pages: {describe_entries(skipped)}",
                    )
                )
            pending.plan = self._plan(pending, pending.source.comicinfo)
            if known is not None:  # renamed or moved, same content: only its place changes
                pending.moved_from = known.id
                pending.close()
                return
            pending.names = list(pending.source.pages)
            if not pending.names:
                found = describe_entries([*skipped, *pending.source.metadata]) or "no files"
                pending.late_failure = f"no page images (JPEG, PNG, WebP, GIF or AVIF); it holds {found}"
                pending.close()
                return
            pending.cover_page = candidate.cover is None and self._may_need_page_cover(
                session, pending.plan
            )

    def _feed(self, pending: _Pending) -> None:
        """Read the next page of `pending` and hand it to the pool."""
        index = len(pending.futures)
        name = pending.names[index]
        try:
            data = pending.source.read(name)
            make_cover = pending.cover_page and index == 0
            future = self._submit(pending.candidate.path, str(self.media.root), data, make_cover)
        except ArchiveError as exc:
            pending.late_failure = f"page {name!r}: {exc}"
        except OSError as exc:
            pending.late_failure = f"cannot read: {exc}"
        except Exception as exc:  # noqa: BLE001 - one unforeseen error must not stop the import
            pending.late_failure = f"unexpected error: {type(exc).__name__}: {exc}"
        else:
            pending.futures.append(future)
            self.active[future] = len(data)
            # Runs in the pool's manager thread (or at once, for one worker): only counts.
            future.add_done_callback(lambda _future: _count_page(pending))
            self._report_one(pending)
        if pending.fed:
            pending.close()

    def _submit(self, owner: Path, root: str, data: bytes, make_cover: bool) -> Future:
        if isinstance(self.pool, _Inline):
            self.inline_owner = owner
            future = self.pool.submit(store_page_detached, root, data, make_cover, self.inline_log)
            self.unsettled[future] = owner
            self.inline_log.created.clear()  # in the future's result now
            return future
        try:
            future = self.pool.submit(store_page_detached, root, data, make_cover)
        except BrokenProcessPool:  # a worker died (killed, or crashed in a decoder): start over
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = process_pool(self.workers)
            future = self.pool.submit(store_page_detached, root, data, make_cover)
        self.unsettled[future] = owner
        return future

    def _known(self, session: Session, pending: _Pending) -> Chapter | None:
        """The chapter this unchanged source was imported as, else None.

        Fast path: the chapter recorded for this path with the same size and
        mtime. Otherwise the content decides (hashed once per candidate): a
        touched file, or one moved or copied, is still the same chapter.
        """
        candidate, stat = pending.candidate, pending.stat
        by_path = repository.chapter_by_source(session=session, source_path=str(candidate.path))
        if (
            by_path is not None
            and by_path.fingerprint
            and (by_path.source_size, by_path.source_mtime_ns) == (stat.size, stat.mtime_ns)
        ):
            return by_path
        if not pending.fingerprint:
            try:
                pending.fingerprint = content_hash(candidate.path, candidate.kind)
            except (OSError, ArchiveError) as exc:
                raise ImportFailure(f"cannot read: {exc}") from None
        if by_path is not None and by_path.fingerprint == pending.fingerprint:
            return by_path
        return repository.chapter_by_fingerprint(session=session, fingerprint=pending.fingerprint)

    def _settle(self, pending: _Pending) -> None:
        """Decide the chapter's outcome, in candidate order, and record it."""
        candidate = pending.candidate
        try:
            if self._settle_one(pending):
                self.report.imported.append(candidate.path)
                # What the chapter left out matters only when it is in; a failure says it all.
                self.report.notes.extend(pending.notes)
            else:
                self.report.skipped.append(candidate.path)
        except ImportFailure as exc:
            self._fail(candidate.path, str(exc))
        except Exception as exc:  # noqa: BLE001 - one unforeseen error must not stop the import
            self._fail(candidate.path, f"unexpected error: {type(exc).__name__}: {exc}")
        else:
            # Settled (committed, skipped or failed and cleaned): nothing left for _abandon.
            for future in pending.futures:
                self.unsettled.pop(future, None)
        finally:
            pending.close()
            self.report.warnings.extend(pending.warnings)
            self.settled_since_cleanup += 1
            if self.janitor and (
                self.settled_since_cleanup >= CLEANUP_EVERY_CHAPTERS
                or time.monotonic() - self.cleaned_at >= CLEANUP_EVERY_SECONDS
            ):
                self.draining = True  # stop reading ahead; clean up once nothing is in flight

    def _fail(self, path: Path, reason: str) -> None:
        self.report.failed.append((path, reason))
        if self.on_failure is not None:
            self.on_failure(path, reason)

    def _settle_one(self, pending: _Pending) -> bool:
        """True when imported, False when skipped as unchanged; ImportFailure otherwise."""
        candidate = pending.candidate
        remaining = [future for future in pending.futures if not future.done()]
        while remaining:
            wait(remaining, return_when=FIRST_COMPLETED)
            self._report_one(pending)
            remaining = [future for future in remaining if not future.done()]
        self._report_one(pending)
        results: list[PageWrite | None] = []
        broken = None
        for future in pending.futures:
            try:
                results.append(future.result())
            except Exception as exc:  # noqa: BLE001 - BrokenProcessPool: a worker died
                results.append(None)
                broken = exc
        created = [Path(path) for result in results if result for path in result.created]
        log = WriteLog()  # files this process writes for the chapter (a cover)
        committed = False
        try:
            if pending.early_failure:
                raise ImportFailure(pending.early_failure)
            with Session(self.engine) as session:
                known = self._known(session, pending)
                if known is not None and known.id == pending.moved_from:
                    return self._move(session, pending, known)
                if known is not None:  # unchanged, or the same file twice in this import
                    series = session.get(Series, known.series_id)
                    self._claim(candidate, series.title, known.number_hundredths)
                    self._remember_source(session, known, pending)
                    return False
                if pending.known:
                    raise ImportFailure("removed from the database during the import; import it again")
                plan = pending.plan
                self._check_claim(candidate, plan.series_title, plan.hundredths)
                if pending.late_failure:
                    raise ImportFailure(pending.late_failure)
                if broken is not None:
                    raise ImportFailure(f"page worker failed: {type(broken).__name__}: {broken}")
                for name, result in zip(pending.names, results, strict=True):
                    if result.error:
                        raise ImportFailure(f"page {name!r}: {result.error}")
                    if result.note:
                        pending.notes.append((candidate.path, f"page {name!r}: {result.note}"))
                pages = [result.stored for result in results]
                stale, old_cover, cover_key = self._commit(session, pending, pages, log)
            committed = True
        finally:
            if not committed:
                self.janitor.discard_files([*created, *log.created], candidate.path)
        self._claim(candidate, plan.series_title, plan.hundredths)
        self.janitor.discard_keys(stale, candidate.path)
        if old_cover and old_cover != cover_key:  # its thumbnails, if its image stays as a page
            thumbnails = [self.media.path(rel) for rel, _ in cover_targets(old_cover)]
            self.janitor.discard_files(thumbnails, candidate.path)
        if pending.cover_page and cover_key != pages[0].key:  # guessed wrongly: not needed
            covers = [path for path in created if "-cover" in path.name]
            self.janitor.discard_files(covers, candidate.path)
        return True

    def _move(self, session: Session, pending: _Pending, known: Chapter) -> bool:
        """A renamed or moved source: its unit takes the number, kind and series
        its new name and place give, keeping its id, views and pages.

        True when that changed the unit; False (skipped as unchanged) when only
        its recorded place did."""
        plan, candidate = pending.plan, pending.candidate
        self._check_claim(candidate, plan.series_title, plan.hundredths)
        if reconcile.same_place(session, known, plan):
            self._claim(candidate, plan.series_title, plan.hundredths)
            self._remember_source(session, known, pending)
            return False
        try:
            freed = reconcile.relocate(session, known, plan, candidate.path, pending.stat, self.media)
            session.commit()
        except library.EditError as exc:
            session.rollback()
            raise ImportFailure(f"renamed or moved, but {exc}") from None
        except (MediaError, OSError) as exc:
            session.rollback()
            raise ImportFailure(f"cover: {exc}") from None
        except sa.exc.SQLAlchemyError as exc:
            session.rollback()
            raise ImportFailure(f"database error: {exc.__class__.__name__}: {exc}") from None
        self._claim(candidate, plan.series_title, plan.hundredths)
        self.janitor.discard_keys(freed, candidate.path)
        return True

    def _remember_source(self, session: Session, known: Chapter, pending: _Pending) -> None:
        """Record where an unchanged chapter is now, so the next import takes the fast path.

        A touched file gets its new size and mtime; a moved one its new path.
        A copy (the recorded file still exists) changes nothing.
        """
        path, stat = str(pending.candidate.path), pending.stat
        if known.source_path != path:
            if known.source_path and Path(known.source_path).exists():
                return
            known.source_path = path
        elif (known.source_size, known.source_mtime_ns) == (stat.size, stat.mtime_ns):
            return
        known.source_size, known.source_mtime_ns = stat.size, stat.mtime_ns
        try:
            session.commit()
        except sa.exc.SQLAlchemyError as exc:
            session.rollback()
            pending.warnings.append((pending.candidate.path, f"could not record its new place: {exc}"))

    def _abandon(self, queue: deque[_Pending]) -> None:
        """After an error or an interruption: what was read ahead is not imported.

        Covers every page task not settled, including those of a chapter caught
        halfway through settling; the janitor keeps whatever a committed row uses.
        """
        for pending in queue:
            pending.close()
        futures = list(self.unsettled)
        for future in futures:
            future.cancel()  # not started yet: never will
        wait(futures)  # the running ones may still create files
        for future, owner in self.unsettled.items():
            if not future.cancelled() and future.exception() is None:
                created = [Path(path) for path in future.result().created]
                self.janitor.discard_files(created, owner)
        self.unsettled.clear()
        if self.inline_log.created:  # a page stopped halfway in this process
            self.janitor.discard_files(self.inline_log.created, self.inline_owner)
            self.inline_log.created.clear()
        queue.clear()

    def _cleanup(self) -> None:
        try:
            self.janitor.flush()
        except (sa.exc.SQLAlchemyError, OSError) as exc:  # never hide what was imported
            owners = {*self.janitor.files.values(), *self.janitor.keys.values()}
            for owner in sorted(owners, key=str):
                self.report.warnings.append((owner, f"media cleanup failed, files may remain: {exc}"))
            self.janitor.files.clear()
            self.janitor.keys.clear()
        self.draining = False
        self.settled_since_cleanup = 0
        self.cleaned_at = time.monotonic()

    # -- one chapter ----------------------------------------------------------------------

    def _check_claim(self, candidate: Candidate, series_title: str, hundredths: int) -> None:
        """Two files of one import claiming the same chapter: the second one fails."""
        other = self.claimed.get((title_key(series_title), hundredths))
        if other is not None and other != candidate.path:
            raise ImportFailure(
                f"duplicate {describe_unit(hundredths, number_word=True)} of "
                f"'{series_title}': {other} already provides it in this import"
            )

    def _claim(self, candidate: Candidate, series_title: str, hundredths: int) -> None:
        self._check_claim(candidate, series_title, hundredths)
        self.claimed[(title_key(series_title), hundredths)] = candidate.path

    def _plan(self, pending: _Pending, comicinfo: bytes | None) -> ChapterPlan:
        candidate = pending.candidate

        def warn(message: str) -> None:
            pending.warnings.append((candidate.path, message))

        info = read_comicinfo(comicinfo, warn)
        try:
            return plan_chapter(
                candidate,
                info,
                self._sidecar(pending),
                file_time=_mtime(candidate.path),
                warn=warn,
            )
        except PlanError as exc:
            raise ImportFailure(str(exc)) from None

    def _sidecar(self, pending: _Pending) -> SeriesSidecar | None:
        sidecar = pending.candidate.sidecar
        if sidecar is None:
            return None
        if sidecar not in self.sidecars:
            try:
                data = read_small_file(sidecar, self.limits.max_metadata_bytes)
                self.sidecars[sidecar] = parse_series_json(data)
            except (OSError, ArchiveError, MetadataError) as exc:
                pending.warnings.append((sidecar, f"series.json ignored: {exc}"))
                self.sidecars[sidecar] = None
        return self.sidecars[sidecar]

    def _may_need_page_cover(self, session: Session, plan: ChapterPlan) -> bool:
        """Whether this chapter's first page will likely become the series cover.

        A guess that saves decoding the page twice; a wrong guess costs a spare
        thumbnail (removed again) or a decode at commit time, never a wrong cover.
        """
        key = title_key(plan.series_title)
        planned = self.cover_planned.get(key)
        if planned is not None and planned <= plan.hundredths:
            return False
        row = session.exec(
            select(Series.cover_key, sa.func.min(Chapter.number_hundredths))
            .join(Chapter, Chapter.series_id == Series.id, isouter=True)
            .where(Series.title_key == key)
            .group_by(Series.id)
        ).first()
        if row is not None:
            cover_key, lowest = row
            if cover_key and lowest is not None and lowest < plan.hundredths:
                return False
        self.cover_planned[key] = plan.hundredths
        return True

    def _commit(
        self, session: Session, pending: _Pending, pages: list[StoredImage], log: WriteLog
    ) -> tuple[set[str], str | None, str | None]:
        """One transaction for the chapter; returns (media keys it may have orphaned,
        the series' cover before, its cover now)."""
        candidate, plan = pending.candidate, pending.plan
        record = upsert.ChapterRecord(
            number_hundredths=plan.hundredths,
            title=plan.chapter_title,
            slug=slugify(readings_for(plan.chapter_title).romaji) if plan.chapter_title else "",
            metadata_date=plan.metadata_date,
            published_at=plan.published_at,
            source_path=str(candidate.path),
            source_size=pending.stat.size,
            source_mtime_ns=pending.stat.mtime_ns,
            fingerprint=pending.fingerprint,
            kind=plan.kind,
        )
        try:
            series = upsert.find_or_create_series(session=session, title=plan.series_title)
            upsert.merge_series_facts(session=session, series=series, facts=plan.facts)
            old_keys = upsert.save_chapter(
                session=session,
                series=series,
                record=record,
                pages=pages,
                source_exists=lambda path: Path(path).exists(),
            )
            chapter_id = session.exec(
                select(Chapter.id).where(
                    Chapter.series_id == series.id, Chapter.number_hundredths == plan.hundredths
                )
            ).one()
            old_cover = series.cover_key
            series.cover_key = self._cover_key(session, candidate, series, chapter_id, pages, log)
            upsert.refresh_updated_at(session=session, series=series)
            session.commit()
        except upsert.DuplicateChapter as exc:
            session.rollback()
            raise ImportFailure(
                f"duplicate {describe_unit(plan.hundredths, number_word=True)} of "
                f"'{plan.series_title}': already imported from {exc.other_source}, which still "
                f"exists; remove or renumber one of the two files ({candidate.path})"
            ) from None
        except sa.exc.SQLAlchemyError as exc:
            session.rollback()
            raise ImportFailure(f"database error: {exc.__class__.__name__}: {exc}") from None
        return {*old_keys, old_cover} - {None, series.cover_key}, old_cover, series.cover_key

    def _cover_key(self, session, candidate, series, chapter_id, pages, log) -> str | None:
        """cover.* in the series folder, else the first page of the lowest-numbered chapter."""
        try:
            if candidate.cover is not None:
                return self.media.store_cover(
                    read_small_file(candidate.cover, COVER_MAX_BYTES), log
                )
            first = session.exec(
                select(Chapter.id)
                .where(Chapter.series_id == series.id)
                .order_by(Chapter.number_hundredths)
                .limit(1)
            ).first()
            if series.cover_key is None or first == chapter_id:
                key = pages[0].key
                if not self.media.has_cover(key):  # not guessed: derive it from the stored original
                    original = self.media.path(original_path(key, pages[0].ext))
                    self.media.store_cover(original.read_bytes(), log)
                return key
        except (MediaError, ArchiveError, OSError) as exc:
            raise ImportFailure(f"cover: {exc}") from None
        return series.cover_key


def _count_page(pending: _Pending) -> None:
    pending.pages_done += 1


def _mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)
