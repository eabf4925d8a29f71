"""Import orchestration: candidates -> pages in the media store -> one transaction per chapter.

Order per chapter: fingerprint (skip when unchanged), read metadata, write
media, then commit the rows. Media is written before the commit so the
database never points at missing files; if anything fails, the files this
chapter created are removed and the transaction rolled back, so neither half
a chapter nor orphan files remain. One bad file never stops the import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session

from manga_app.catalogue import repository, upsert
from manga_app.catalogue.archives import (
    DEFAULT_LIMITS,
    ArchiveError,
    Limits,
    fingerprint,
    open_chapter,
    read_small_file,
)
from manga_app.catalogue.comicinfo import MetadataError, SeriesSidecar, parse_series_json
from manga_app.catalogue.media import MediaError, MediaStore, StoredImage, WriteLog
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import format_chapter_number, slugify, title_key
from manga_app.catalogue.planning import ChapterPlan, PlanError, plan_chapter, read_comicinfo
from manga_app.catalogue.readings import readings_for
from manga_app.catalogue.scanner import Candidate, scan

__all__ = ["ImportFailure", "ImportReport", "import_source"]

COVER_MAX_BYTES = 32 * 1024 * 1024


class ImportFailure(Exception):
    """This chapter is not imported; the message says why."""


@dataclass
class ImportReport:
    imported: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)
    warnings: list[tuple[Path, str]] = field(default_factory=list)

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
) -> ImportReport:
    """Import every chapter candidate under `source`; see ImportReport for the outcome."""
    run = _ImportRun(engine=engine, media=media, limits=limits)
    candidates = scan(Path(source))
    if on_start:
        on_start(len(candidates))
    for candidate in candidates:
        try:
            if run.import_one(candidate):
                run.report.imported.append(candidate.path)
            else:
                run.report.skipped.append(candidate.path)
        except ImportFailure as exc:
            run.report.failed.append((candidate.path, str(exc)))
        except Exception as exc:  # noqa: BLE001 - one unforeseen error must not stop the import
            run.report.failed.append(
                (candidate.path, f"unexpected error: {type(exc).__name__}: {exc}")
            )
        if on_progress:
            on_progress(candidate)
    return run.report


class _ImportRun:
    def __init__(self, *, engine: sa.Engine, media: MediaStore, limits: Limits) -> None:
        self.engine, self.media, self.limits = engine, media, limits
        self.report = ImportReport()
        self.claimed: dict[tuple[str, int], Path] = {}  # (series key, number) -> file, this run
        self.sidecars: dict[Path, SeriesSidecar | None] = {}

    def import_one(self, candidate: Candidate) -> bool:
        """True when imported, False when skipped as unchanged; ImportFailure otherwise."""
        try:
            source_print = fingerprint(candidate.path, candidate.kind)
        except (OSError, ArchiveError) as exc:
            raise ImportFailure(f"cannot read: {exc}") from None
        with Session(self.engine) as session:
            known = repository.chapter_by_fingerprint(session=session, fingerprint=source_print)
            if known is not None:
                series = session.get(Series, known.series_id)
                self._claim(candidate, series.title, known.number_hundredths)
                return False
        try:
            with open_chapter(candidate.path, candidate.kind, self.limits) as source:
                plan = self._plan(candidate, source.comicinfo)
                self._check_claim(candidate, plan.series_title, plan.hundredths)
                log = WriteLog()
                try:
                    pages = self._store_pages(source, log)
                    stale = self._commit(candidate, plan, source_print, pages, source, log)
                except BaseException:
                    self.media.remove_created(log)
                    raise
        except ArchiveError as exc:
            raise ImportFailure(str(exc)) from None
        except OSError as exc:
            raise ImportFailure(f"cannot read: {exc}") from None
        self._claim(candidate, plan.series_title, plan.hundredths)
        self._remove_stale(candidate, stale)
        return True

    def _check_claim(self, candidate: Candidate, series_title: str, hundredths: int) -> None:
        """Two files of one import claiming the same chapter: the second one fails."""
        other = self.claimed.get((title_key(series_title), hundredths))
        if other is not None and other != candidate.path:
            raise ImportFailure(
                f"duplicate chapter number {format_chapter_number(hundredths)} of "
                f"'{series_title}': {other} already provides it in this import"
            )

    def _claim(self, candidate: Candidate, series_title: str, hundredths: int) -> None:
        self._check_claim(candidate, series_title, hundredths)
        self.claimed[(title_key(series_title), hundredths)] = candidate.path

    def _remove_stale(self, candidate: Candidate, keys: set[str]) -> None:
        """Delete media that the replaced chapter or old cover used and nothing uses now."""
        with Session(self.engine) as session:
            for key in keys:
                try:
                    if not repository.media_key_in_use(session=session, key=key):
                        self.media.remove_image(key)
                except OSError as exc:
                    self.report.warnings.append(
                        (candidate.path, f"could not remove old media {key}: {exc}")
                    )

    def _plan(self, candidate: Candidate, comicinfo: bytes | None) -> ChapterPlan:
        def warn(message: str) -> None:
            self.report.warnings.append((candidate.path, message))

        info = read_comicinfo(comicinfo, warn)
        try:
            return plan_chapter(
                candidate,
                info,
                self._sidecar(candidate),
                file_time=_mtime(candidate.path),
                warn=warn,
            )
        except PlanError as exc:
            raise ImportFailure(str(exc)) from None

    def _sidecar(self, candidate: Candidate) -> SeriesSidecar | None:
        if candidate.sidecar is None:
            return None
        if candidate.sidecar not in self.sidecars:
            try:
                data = read_small_file(candidate.sidecar, self.limits.max_metadata_bytes)
                self.sidecars[candidate.sidecar] = parse_series_json(data)
            except (OSError, ArchiveError, MetadataError) as exc:
                self.report.warnings.append((candidate.sidecar, f"series.json ignored: {exc}"))
                self.sidecars[candidate.sidecar] = None
        return self.sidecars[candidate.sidecar]

    def _store_pages(self, source, log: WriteLog) -> list[StoredImage]:
        if not source.pages:
            raise ImportFailure("no page images (JPEG, PNG, WebP or GIF) found")
        pages = []
        for name in source.pages:
            try:
                pages.append(self.media.store_page(source.read(name), log))
            except (MediaError, ArchiveError) as exc:
                raise ImportFailure(f"page {name!r}: {exc}") from None
        return pages

    def _commit(
        self, candidate, plan: ChapterPlan, source_print: str, pages, source, log: WriteLog
    ) -> set[str]:
        """One transaction for the chapter; returns media keys it may have orphaned."""
        chapter = Chapter(
            number_hundredths=plan.hundredths,
            title=plan.chapter_title,
            slug=slugify(readings_for(plan.chapter_title).romaji) if plan.chapter_title else "",
            published_at=plan.published_at,
            source_path=str(candidate.path),
            fingerprint=source_print,
        )
        with Session(self.engine) as session:
            try:
                series = upsert.find_or_create_series(session=session, title=plan.series_title)
                upsert.merge_series_facts(session=session, series=series, facts=plan.facts)
                old_keys = upsert.replace_chapter(
                    session=session, series=series, chapter=chapter, pages=pages
                )
                old_cover = series.cover_key
                series.cover_key = self._cover_key(session, candidate, series, chapter, source, log)
                upsert.refresh_updated_at(session=session, series=series)
                session.commit()
            except sa.exc.SQLAlchemyError as exc:
                session.rollback()
                raise ImportFailure(f"database error: {exc.__class__.__name__}: {exc}") from None
            return {*old_keys, old_cover} - {None, series.cover_key}

    def _cover_key(self, session, candidate, series, chapter, source, log) -> str | None:
        """cover.* in the series folder, else the first page of the lowest-numbered chapter."""
        try:
            if candidate.cover is not None:
                return self.media.store_cover(
                    read_small_file(candidate.cover, COVER_MAX_BYTES), log
                )
            first = repository.chapters_of(session=session, series_id=series.id)[0]
            if series.cover_key is None or first.id == chapter.id:
                return self.media.store_cover(source.read(source.pages[0]), log)
        except (MediaError, ArchiveError, OSError) as exc:
            raise ImportFailure(f"cover: {exc}") from None
        return series.cover_key


def _mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, UTC)
