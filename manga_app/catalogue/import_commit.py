"""Planning and committing one chapter of an import: its plan from the
metadata and names (with the series sidecar), then its rows in one
transaction, with the series cover when it needs one."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import upsert
from manga_app.catalogue.archives import ArchiveError, read_small_file
from manga_app.catalogue.comicinfo import MetadataError, SeriesSidecar, parse_series_json
from manga_app.catalogue.locks import locked
from manga_app.catalogue.media import MediaError, StoredImage, WriteLog, original_path
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import describe_unit, slugify, title_key
from manga_app.catalogue.planning import ChapterPlan, PlanError, plan_chapter, read_comicinfo
from manga_app.catalogue.readings import readings_for
from manga_app.catalogue.import_pipeline import PendingChapter
from manga_app.catalogue.import_report import ImportFailure, OutOfSpace, database_full
from manga_app.catalogue.import_settle import source_mtime


COVER_MAX_BYTES = 32 * 1024 * 1024


class ChapterCommit:
    """The commit part of settling a chapter (importer._ImportRun)."""

    def _plan(self, pending: PendingChapter, comicinfo: bytes | None) -> ChapterPlan:
        candidate = pending.candidate

        def warn(message: str) -> None:
            pending.warnings.append((candidate.path, message))

        info = read_comicinfo(comicinfo, warn)
        try:
            return plan_chapter(
                candidate,
                info,
                self._sidecar(pending),
                file_time=source_mtime(candidate.path),
                warn=warn,
                placement=self.placements.get(candidate.path),
            )
        except PlanError as exc:
            raise ImportFailure(str(exc)) from None

    def _sidecar(self, pending: PendingChapter) -> SeriesSidecar | None:
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
        self, session: Session, pending: PendingChapter, pages: list[StoredImage], log: WriteLog
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
            if database_full(getattr(exc, "orig", None)):
                url = self.engine.url.render_as_string(hide_password=True)
                raise OutOfSpace(f"the disk holding the database {url} is full ({exc.orig})") from None
            raise ImportFailure(f"database error: {exc.__class__.__name__}: {exc}") from None
        return {*old_keys, old_cover} - {None, series.cover_key}, old_cover, series.cover_key

    def _cover_key(self, session, candidate, series, chapter_id, pages, log) -> str | None:
        """cover.* in the series folder, else the first page of the lowest-numbered
        chapter; the operator's choice while they keep it locked."""
        if "cover" in locked(session, series.id):
            return series.cover_key
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
