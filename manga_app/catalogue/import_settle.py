"""Settling one chapter of an import, in candidate order: recognise it
(unchanged, moved or new), check claims, plan it, then commit its rows in one
transaction with its cover, or report why not."""

from __future__ import annotations

import time
from concurrent.futures import FIRST_COMPLETED, wait
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session

from manga_app.catalogue import library, reconcile, repository
from manga_app.catalogue.archives import ArchiveError, content_hash
from manga_app.catalogue.media import MediaError, PageWrite, WriteLog, cover_targets
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import describe_unit, title_key
from manga_app.catalogue.scanner import Candidate
from manga_app.catalogue.import_pipeline import CLEANUP_EVERY_CHAPTERS, CLEANUP_EVERY_SECONDS, PendingChapter
from manga_app.catalogue.import_report import ImportFailure, OutOfSpace


class ChapterSettling:
    """The settling half of an import run (importer._ImportRun)."""

    def _known(self, session: Session, pending: PendingChapter) -> Chapter | None:
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

    def _settle(self, pending: PendingChapter) -> None:
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
            if isinstance(exc, OutOfSpace):
                self.report.stopped = str(exc)  # the run stops: every later chapter would fail too
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

    def _settle_one(self, pending: PendingChapter) -> bool:
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
                        raise (OutOfSpace if result.full else ImportFailure)(f"page {name!r}: {result.error}")
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

    def _move(self, session: Session, pending: PendingChapter, known: Chapter) -> bool:
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

    def _remember_source(self, session: Session, known: Chapter, pending: PendingChapter) -> None:
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


def source_mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)
