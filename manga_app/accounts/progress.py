"""Queries on reading progress and history removals: keyword-only functions
taking a session. Every function takes the uid of a verified token and
touches that uid's rows only. Callers commit.

A progress row is one chapter of one series: where the user is in it, and
whether it was read to its last page (`finished`, which stays once set).
The newest write wins the position, by the device's reading time.
A removal (tombstone) keeps a removed series out of the history: a browser's
older copy pushed later (another device, a later sign-in) is dropped; only a
position read after the removal brings the series back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, delete, func, select

from manga_app.accounts.models import HistoryRemoval, ReadingProgress
from manga_app.catalogue.models import Chapter, Series

# Rows kept per user (one per chapter read); the oldest go first.
MAX_PROGRESS_ROWS = 5000
# Tombstones kept per user; the oldest go first.
MAX_REMOVALS = 500
# Most series shown on /history (and mirrored into the browser).
HISTORY_LIMIT = 200
# The removal of the whole history.
EVERYTHING = ""


@dataclass(frozen=True)
class HistoryRow:
    """The last chapter read in one series, with the chapters read to the
    end there (`read`) and those left part-way with their page (`opened`)."""

    series_slug: str
    chapter_hundredths: int
    page: int
    offset: float
    updated_at: datetime
    read: tuple[int, ...]
    chapter_title: str = ""
    opened: tuple[tuple[int, int], ...] = ()


def _progress_row(session: Session, uid: str, slug: str, chapter_hundredths: int) -> ReadingProgress | None:
    return session.exec(
        select(ReadingProgress).where(
            ReadingProgress.uid == uid,
            ReadingProgress.series_slug == slug,
            ReadingProgress.chapter_hundredths == chapter_hundredths,
        )
    ).first()


def record_progress(
    *, session: Session, uid: str, slug: str, chapter_hundredths: int, page: int, offset: float, at: datetime,
    finished: bool = False,
) -> bool:
    """Store a reading position; an older write than the stored one loses
    (two devices, newest wins), but its `finished` is kept: reaching the end
    is a fact whatever came after. True when anything was stored."""
    row = _progress_row(session, uid, slug, chapter_hundredths)
    if row is not None and row.updated_at >= at:
        if not finished or row.finished:
            return False
        row.finished = True
    else:
        row = row or ReadingProgress(uid=uid, series_slug=slug, chapter_hundredths=chapter_hundredths)
        row.page, row.offset, row.updated_at = page, offset, at
        row.finished = row.finished or finished
    session.add(row)
    session.flush()
    return True


def mark_read(*, session: Session, uid: str, slug: str, chapter_hundredths: int, at: datetime) -> bool:
    """A chapter read to the end, without a position: marks the row finished,
    or adds one when missing; never overwrites a position."""
    row = _progress_row(session, uid, slug, chapter_hundredths)
    if row is not None and row.finished:
        return False
    row = row or ReadingProgress(uid=uid, series_slug=slug, chapter_hundredths=chapter_hundredths, updated_at=at)
    row.finished = True
    session.add(row)
    session.flush()
    return True


def prune_progress(*, session: Session, uid: str, keep: int | None = None) -> int:
    """Forget the user's oldest rows past `keep` (MAX_PROGRESS_ROWS); how many went."""
    keep = MAX_PROGRESS_ROWS if keep is None else keep
    excess = session.exec(select(func.count()).select_from(ReadingProgress).where(ReadingProgress.uid == uid)).one() - keep
    if excess <= 0:
        return 0
    oldest = (
        select(ReadingProgress.id)
        .where(ReadingProgress.uid == uid)
        .order_by(col(ReadingProgress.updated_at).asc(), col(ReadingProgress.id).asc())
        .limit(excess)
    )
    ids = list(session.exec(oldest))
    session.exec(delete(ReadingProgress).where(col(ReadingProgress.id).in_(ids)))
    session.flush()
    return len(ids)


def progress_rows(*, session: Session, uid: str, slug: str | None = None) -> list[ReadingProgress]:
    """Newest first (ties: the row written last first)."""
    query = select(ReadingProgress).where(ReadingProgress.uid == uid)
    if slug is not None:
        query = query.where(ReadingProgress.series_slug == slug)
    return list(session.exec(query.order_by(col(ReadingProgress.updated_at).desc(), col(ReadingProgress.id).desc())))


def history(*, session: Session, uid: str, limit: int = HISTORY_LIMIT) -> list[HistoryRow]:
    """One row per series, the most recently read first, with the title of
    the chapter it names."""
    latest: dict[str, ReadingProgress] = {}
    read: dict[str, list[int]] = {}
    opened: dict[str, list[tuple[int, int]]] = {}
    for row in progress_rows(session=session, uid=uid):
        latest.setdefault(row.series_slug, row)
        read.setdefault(row.series_slug, [])
        opened.setdefault(row.series_slug, [])
        if row.finished:
            read[row.series_slug].append(row.chapter_hundredths)
        else:
            opened[row.series_slug].append((row.chapter_hundredths, row.page))
    chosen = list(latest.items())[:limit]
    titles = _chapter_titles(session, [(slug, row.chapter_hundredths) for slug, row in chosen])
    return [
        HistoryRow(
            series_slug=slug,
            chapter_hundredths=row.chapter_hundredths,
            page=row.page,
            offset=row.offset,
            updated_at=row.updated_at,
            read=tuple(sorted(read[slug])),
            chapter_title=titles.get((slug, row.chapter_hundredths), ""),
            opened=tuple(sorted(opened[slug])),
        )
        for slug, row in chosen
    ]


def _chapter_titles(session: Session, pairs: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    if not pairs:
        return {}
    slugs = {slug for slug, _ in pairs}
    rows = session.exec(
        select(Series.slug, Chapter.number_hundredths, Chapter.title)
        .join(Chapter, Chapter.series_id == Series.id)
        .where(col(Series.slug).in_(slugs))
    )
    wanted = set(pairs)
    return {(slug, number): title for slug, number, title in rows if (slug, number) in wanted}


def chapter_page_count(*, session: Session, slug: str, chapter_hundredths: int) -> int | None:
    """The chapter's page count in the catalogue; None when there is no such chapter."""
    query = (
        select(Chapter.page_count)
        .join(Series, Series.id == Chapter.series_id)
        .where(Series.slug == slug, Chapter.number_hundredths == chapter_hundredths)
    )
    return session.exec(query).first()


def remove_history(*, session: Session, uid: str, slug: str, now: datetime) -> int:
    """Forget one series' progress and keep a tombstone; how many rows went."""
    result = session.exec(delete(ReadingProgress).where(ReadingProgress.uid == uid, ReadingProgress.series_slug == slug))
    _tombstone(session, uid, slug, now)
    return result.rowcount


def clear_history(*, session: Session, uid: str, now: datetime) -> int:
    """Forget all progress; one tombstone stands for every series."""
    result = session.exec(delete(ReadingProgress).where(ReadingProgress.uid == uid))
    session.exec(delete(HistoryRemoval).where(HistoryRemoval.uid == uid))
    _tombstone(session, uid, EVERYTHING, now)
    return result.rowcount


def _tombstone(session: Session, uid: str, slug: str, now: datetime) -> None:
    row = session.exec(select(HistoryRemoval).where(HistoryRemoval.uid == uid, HistoryRemoval.series_slug == slug)).first()
    row = row or HistoryRemoval(uid=uid, series_slug=slug)
    row.removed_at = now
    session.add(row)
    session.flush()
    oldest = list(
        session.exec(
            select(HistoryRemoval.id)
            .where(HistoryRemoval.uid == uid)
            .order_by(col(HistoryRemoval.removed_at).desc(), col(HistoryRemoval.id).desc())
            .offset(MAX_REMOVALS)
        )
    )
    if oldest:
        session.exec(delete(HistoryRemoval).where(col(HistoryRemoval.id).in_(oldest)))
        session.flush()


def removals(*, session: Session, uid: str) -> dict[str, datetime]:
    """slug -> when it was removed ("" -> when everything was)."""
    rows = session.exec(select(HistoryRemoval.series_slug, HistoryRemoval.removed_at).where(HistoryRemoval.uid == uid))
    return {slug: moment for slug, moment in rows}


def removed_before(removed: dict[str, datetime], slug: str, at: datetime) -> bool:
    """True when a position read at `at` predates the removal of its series."""
    return any(moment is not None and at <= moment for moment in (removed.get(slug), removed.get(EVERYTHING)))


def move_progress(*, session: Session, source_uid: str, target_uid: str) -> None:
    """Every position of `source_uid` joins `target_uid` (newest wins), except
    those the target removed later; the source's rows are then deleted."""
    removed = removals(session=session, uid=target_uid)
    for row in progress_rows(session=session, uid=source_uid):
        if removed_before(removed, row.series_slug, row.updated_at):
            continue
        record_progress(
            session=session,
            uid=target_uid,
            slug=row.series_slug,
            chapter_hundredths=row.chapter_hundredths,
            page=row.page,
            offset=row.offset,
            at=row.updated_at,
            finished=row.finished,
        )
    session.exec(delete(ReadingProgress).where(ReadingProgress.uid == source_uid))
    session.exec(delete(HistoryRemoval).where(HistoryRemoval.uid == source_uid))
    prune_progress(session=session, uid=target_uid)
