"""The importer's pipeline: read candidates ahead, hand their pages to the
worker pool within bounds of pages and bytes, report pages as they finish,
and on the way out abandon and clean up what was not settled."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session

from manga_app.catalogue import reconcile
from manga_app.catalogue.archives import ArchiveError, ChapterSource, SourceStat, open_chapter, source_stat
from manga_app.catalogue.media import store_page_detached
from manga_app.catalogue.pool import process_pool
from manga_app.catalogue.planning import ChapterPlan
from manga_app.catalogue.readings import readings_for
from manga_app.catalogue.scanner import Candidate, describe_entries
from manga_app.catalogue.import_report import ImportFailure
from manga_app.core.text import has_surrogate


PAGES_AHEAD_PER_WORKER = 8  # pages read and queued per worker, beyond the one it works on
MAX_BYTES_AHEAD = 256 * 1024 * 1024  # page bytes read but not yet processed
CLEANUP_EVERY_CHAPTERS = 64
CLEANUP_EVERY_SECONDS = 30.0


class InlineExecutor(Executor):
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
class PendingChapter:
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


class ImportPipeline:
    """The pipeline half of an import run (importer._ImportRun): its state is
    set up there; settling a chapter is import_settle.ChapterSettling."""

    def run(self, candidates: list[Candidate], on_progress) -> None:
        todo = iter(candidates)
        queue: deque[PendingChapter] = deque()
        self.pool = InlineExecutor() if self.workers == 1 else process_pool(self.workers)
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
                    if self.report.stopped:
                        break  # what was read ahead is abandoned below
                else:
                    wait(list(self.active), return_when=FIRST_COMPLETED)
                    self._report_pages(queue)
        finally:
            self._abandon(queue)
            self.pool.shutdown(wait=True, cancel_futures=True)
            self._cleanup()

    def _report_pages(self, queue: deque[PendingChapter]) -> None:
        """Tell on_page about pages finished since the last call (the progress bar moves per page)."""
        for pending in queue:
            self._report_one(pending)

    def _report_one(self, pending: PendingChapter) -> None:
        done = pending.pages_done
        if self.on_page is not None and done > pending.pages_reported:
            pending.pages_reported = done
            self.on_page(pending.candidate, done, len(pending.names))

    def _fill(self, queue: deque[PendingChapter], todo: Iterable[Candidate], more: bool) -> bool:
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

    def _prepare(self, candidate: Candidate) -> PendingChapter:
        pending = PendingChapter(candidate)
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

    def _open(self, pending: PendingChapter) -> None:
        candidate = pending.candidate
        if has_surrogate(str(candidate.path)):
            raise ImportFailure("its name is not valid UTF-8, so it cannot be a title or a URL; rename it")
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

    def _feed(self, pending: PendingChapter) -> None:
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
            future.add_done_callback(lambda _future: count_page(pending))
            self._report_one(pending)
        if pending.fed:
            pending.close()

    def _submit(self, owner: Path, root: str, data: bytes, make_cover: bool) -> Future:
        if isinstance(self.pool, InlineExecutor):
            self.inline_owner = owner
            future = self.pool.submit(store_page_detached, root, data, make_cover, self.inline_log, avif=self.media.avif)
            self.unsettled[future] = owner
            self.inline_log.created.clear()  # in the future's result now
            return future
        try:
            future = self.pool.submit(store_page_detached, root, data, make_cover, avif=self.media.avif)
        except BrokenProcessPool:  # a worker died (killed, or crashed in a decoder): start over
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = process_pool(self.workers)
            future = self.pool.submit(store_page_detached, root, data, make_cover, avif=self.media.avif)
        self.unsettled[future] = owner
        return future

    def _abandon(self, queue: deque[PendingChapter]) -> None:
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


def count_page(pending: PendingChapter) -> None:
    pending.pages_done += 1
