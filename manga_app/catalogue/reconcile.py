"""How an import follows the source tree: a unit whose content turns up under
another name or place moves there (number, kind and series from its new name,
id, views and pages kept), and units whose files are gone are removed.

The importer calls these inside its own flow (importer.py); the edits
themselves are library.py's. Nothing here commits.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from sqlmodel import Session, select

from manga_app.catalogue import library, upsert
from manga_app.catalogue.archives import ArchiveError, SourceStat, source_stat
from manga_app.catalogue.media import MediaStore, WriteLog, original_path
from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import describe_unit, title_key
from manga_app.catalogue.planning import ChapterPlan

__all__ = ["displaced", "gone_units", "moved", "relocate", "same_place"]


def moved(known: Chapter, path: Path) -> bool:
    """The unit's content is at `path` now: its recorded source is gone, or holds
    something else (renames shifted or swapped the names). A copy, its original
    untouched, is not a move."""
    return known.source_path != str(path) and displaced(known)


def displaced(known: Chapter) -> bool:
    """The unit's recorded file is gone, or its size or mtime changed (it holds something else now)."""
    recorded = Path(known.source_path) if known.source_path else None
    try:
        found = source_stat(recorded, "folder" if recorded.is_dir() else "archive") if recorded else None
    except (OSError, ArchiveError):
        return True
    return found is None or (found.size, found.mtime_ns) != (known.source_size, known.source_mtime_ns)


def same_place(session: Session, known: Chapter, plan: ChapterPlan) -> bool:
    """The plan puts the unit where it already is (only its file's place changed)."""
    where = session.exec(select(Series.title_key).where(Series.id == known.series_id)).one()
    return (where, known.number_hundredths, known.kind) == (
        title_key(plan.series_title),
        plan.hundredths,
        plan.kind,
    ) and plan.chapter_title in ("", known.title)


def relocate(
    session: Session, known: Chapter, plan: ChapterPlan, path: Path, stat: SourceStat, media: MediaStore
) -> set[str]:
    """Put the unit where its new name says; the media keys that may be orphaned.

    library.EditError when another unit holds that number and is not itself
    displaced; MediaError or OSError when a new series' cover cannot be made.
    """
    series = upsert.find_or_create_series(session=session, title=plan.series_title)
    upsert.merge_series_facts(session=session, series=series, facts=plan.facts)
    freed = library.move_unit(
        session=session, chapter=known, series=series, key=plan.hundredths, kind=plan.kind, displaced=displaced
    )
    known.source_path = str(path)
    known.source_size, known.source_mtime_ns = stat.size, stat.mtime_ns
    if plan.chapter_title:
        known.title = plan.chapter_title
    if series.cover_key is None:
        series.cover_key = _cover_from_first_page(session, known.id, media)
    return freed


def _cover_from_first_page(session: Session, chapter_id: int, media: MediaStore) -> str | None:
    first = session.exec(
        select(Page.media_key, Page.ext).where(Page.chapter_id == chapter_id, Page.index == 0)
    ).first()
    if first is None:
        return None
    key, ext = first
    if not media.has_cover(key):
        media.store_cover(media.path(original_path(key, ext)).read_bytes(), WriteLog())
    return key


def gone_units(session: Session, root: Path | None, seen: Iterable[Path]) -> tuple[list[tuple[Path, str]], set[str]]:
    """Remove the units whose file under `root` (a folder import; None: none) is
    gone, and those still parked (library.PARKED_KEY: their file now holds
    another unit); (what was removed, for the report; media keys it freed)."""
    gone = library.gone_from_source(session=session, root=root, seen=seen) if root else []
    parked = library.parked(session=session)
    ids = {unit.series_id for unit in [*gone, *parked]}
    titles = dict(session.exec(select(Series.id, Series.title).where(Series.id.in_(ids))).all()) if ids else {}
    removed = [
        (Path(u.source_path), f"removed {describe_unit(u.number_hundredths)} of '{titles[u.series_id]}': its file is gone")
        for u in gone
    ] + [
        (
            Path(u.source_path),
            f"removed a unit of '{titles[u.series_id]}': its file now holds another unit, "
            "and its content is nowhere in the source",
        )
        for u in parked
    ]
    return removed, library.remove_units(session=session, chapters=[*gone, *parked])
