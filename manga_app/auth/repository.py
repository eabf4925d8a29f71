"""Queries on the account tables: keyword-only functions taking a session.

Every function takes the uid of a verified token (never one the browser
sent) and touches that uid's rows only. Callers commit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session, col, delete, func, select

from manga_app.auth.models import Follow, ReadingProgress, UserAccount
from manga_app.auth.verify import VerifiedUser
from manga_app.catalogue.models import Chapter, Series, utc_now

# A user follows at most this many series; more is refused, not truncated.
MAX_FOLLOWS = 1000
# Most series shown on /history.
HISTORY_LIMIT = 200


@dataclass(frozen=True)
class HistoryRow:
    """The last chapter read in one series, with every chapter read there."""

    series_slug: str
    chapter_hundredths: int
    page: int
    offset: float
    updated_at: datetime
    read: tuple[int, ...]


def upsert_user(*, session: Session, user: VerifiedUser, now: datetime | None = None) -> UserAccount:
    row = session.get(UserAccount, user.uid)
    now = now or utc_now()
    if row is None:
        row = UserAccount(uid=user.uid, created_at=now)
    # Anonymous tokens carry no profile: an upgrade to Google fills it in.
    row.email, row.name, row.avatar = user.email, user.name, user.avatar
    row.is_anonymous = user.is_anonymous
    row.updated_at = now
    session.add(row)
    session.flush()
    return row


def get_user(*, session: Session, uid: str) -> UserAccount | None:
    return session.get(UserAccount, uid)


def followed_slugs(*, session: Session, uid: str) -> list[str]:
    """Newest follow first."""
    rows = session.exec(
        select(Follow.series_slug).where(Follow.uid == uid).order_by(col(Follow.created_at).desc(), col(Follow.id).desc())
    )
    return list(rows)


def is_following(*, session: Session, uid: str, slug: str) -> bool:
    return session.exec(select(Follow.id).where(Follow.uid == uid, Follow.series_slug == slug)).first() is not None


def follow(*, session: Session, uid: str, slug: str, now: datetime | None = None) -> bool:
    """True when added; False when already followed or the limit is reached."""
    if is_following(session=session, uid=uid, slug=slug):
        return False
    if count_follows(session=session, uid=uid) >= MAX_FOLLOWS:
        return False
    session.add(Follow(uid=uid, series_slug=slug, created_at=now or utc_now()))
    session.flush()
    return True


def unfollow(*, session: Session, uid: str, slug: str) -> bool:
    result = session.exec(delete(Follow).where(Follow.uid == uid, Follow.series_slug == slug))
    return bool(result.rowcount)


def count_follows(*, session: Session, uid: str) -> int:
    return session.exec(select(func.count()).select_from(Follow).where(Follow.uid == uid)).one()


def record_progress(
    *, session: Session, uid: str, slug: str, chapter_hundredths: int, page: int, offset: float, at: datetime
) -> bool:
    """Store a reading position; an older write than the stored one loses
    (two devices, newest wins). True when stored."""
    row = session.exec(
        select(ReadingProgress).where(
            ReadingProgress.uid == uid,
            ReadingProgress.series_slug == slug,
            ReadingProgress.chapter_hundredths == chapter_hundredths,
        )
    ).first()
    if row is not None and row.updated_at >= at:
        return False
    row = row or ReadingProgress(uid=uid, series_slug=slug, chapter_hundredths=chapter_hundredths)
    row.page, row.offset, row.updated_at = page, offset, at
    session.add(row)
    session.flush()
    return True


def progress_rows(*, session: Session, uid: str, slug: str | None = None) -> list[ReadingProgress]:
    query = select(ReadingProgress).where(ReadingProgress.uid == uid)
    if slug is not None:
        query = query.where(ReadingProgress.series_slug == slug)
    return list(session.exec(query.order_by(col(ReadingProgress.updated_at).desc())))


def history(*, session: Session, uid: str, limit: int = HISTORY_LIMIT) -> list[HistoryRow]:
    """One row per series, the most recently read first."""
    latest: dict[str, ReadingProgress] = {}
    read: dict[str, list[int]] = {}
    for row in progress_rows(session=session, uid=uid):
        latest.setdefault(row.series_slug, row)
        read.setdefault(row.series_slug, []).append(row.chapter_hundredths)
    rows = [
        HistoryRow(
            series_slug=slug,
            chapter_hundredths=row.chapter_hundredths,
            page=row.page,
            offset=row.offset,
            updated_at=row.updated_at,
            read=tuple(sorted(read[slug])),
        )
        for slug, row in latest.items()
    ]
    return rows[:limit]


def remove_history(*, session: Session, uid: str, slug: str) -> int:
    result = session.exec(delete(ReadingProgress).where(ReadingProgress.uid == uid, ReadingProgress.series_slug == slug))
    return result.rowcount


def clear_history(*, session: Session, uid: str) -> int:
    return session.exec(delete(ReadingProgress).where(ReadingProgress.uid == uid)).rowcount


def merge_user(*, session: Session, source_uid: str, target_uid: str) -> None:
    """Move everything of `source_uid` (an anonymous account) into
    `target_uid`: follows are united, positions merged newest-wins; the
    source account is then deleted."""
    if source_uid == target_uid:
        return
    for slug in reversed(followed_slugs(session=session, uid=source_uid)):
        follow(session=session, uid=target_uid, slug=slug)
    for row in progress_rows(session=session, uid=source_uid):
        record_progress(
            session=session,
            uid=target_uid,
            slug=row.series_slug,
            chapter_hundredths=row.chapter_hundredths,
            page=row.page,
            offset=row.offset,
            at=row.updated_at,
        )
    session.exec(delete(Follow).where(Follow.uid == source_uid))
    session.exec(delete(ReadingProgress).where(ReadingProgress.uid == source_uid))
    session.exec(delete(UserAccount).where(UserAccount.uid == source_uid))
    session.flush()


def unread_counts(*, session: Session, last_read: dict[str, int], slugs: Iterable[str]) -> dict[str, int]:
    """Per series slug: chapters published after the last one read there
    (every chapter when none was read)."""
    slugs = list(slugs)
    if not slugs:
        return {}
    rows = session.exec(
        select(Series.slug, Chapter.number_hundredths)
        .join(Chapter, sa.and_(Chapter.series_id == Series.id))
        .where(col(Series.slug).in_(slugs))
    )
    counts = dict.fromkeys(slugs, 0)
    for slug, number in rows:
        if number > last_read.get(slug, -1):
            counts[slug] += 1
    return counts


def mark_read(*, session: Session, uid: str, slug: str, chapter_hundredths: int, at: datetime) -> bool:
    """A read mark without a position: added when missing, never overwrites one."""
    exists = session.exec(
        select(ReadingProgress.id).where(
            ReadingProgress.uid == uid,
            ReadingProgress.series_slug == slug,
            ReadingProgress.chapter_hundredths == chapter_hundredths,
        )
    ).first()
    if exists is not None:
        return False
    session.add(ReadingProgress(uid=uid, series_slug=slug, chapter_hundredths=chapter_hundredths, updated_at=at))
    session.flush()
    return True
