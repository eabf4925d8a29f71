"""Queries on users and follows: keyword-only functions taking a session
(reading progress is progress.py).

Every function takes the uid of a verified token (never one the browser
sent) and touches that uid's rows only. Callers commit."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, delete, func, select

from manga_app.accounts import lists, progress
from manga_app.accounts.models import Follow, UserAccount
from manga_app.accounts.verify import VerifiedUser
from manga_app.catalogue.models import utc_now

# A user follows at most this many series; more is refused, not truncated.
MAX_FOLLOWS = 1000


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


def follow(
    *, session: Session, uid: str, slug: str, now: datetime | None = None, status: str = lists.DEFAULT,
    opened_at: datetime | None = None,
) -> bool:
    """True when added; False when already followed or the limit is reached."""
    if is_following(session=session, uid=uid, slug=slug):
        return False
    if count_follows(session=session, uid=uid) >= MAX_FOLLOWS:
        return False
    session.add(Follow(uid=uid, series_slug=slug, created_at=now or utc_now(), status=status, opened_at=opened_at))
    session.flush()
    return True


def _follow_row(session: Session, uid: str, slug: str) -> Follow | None:
    return session.exec(select(Follow).where(Follow.uid == uid, Follow.series_slug == slug)).first()


def set_status(*, session: Session, uid: str, slug: str, status: str) -> str | None:
    """The series' status in the user's library, following it first when it
    is not there. Returns the status it had (None: it was not followed);
    raises LookupError when the follow limit leaves no room."""
    row = _follow_row(session, uid, slug)
    if row is None:
        if not follow(session=session, uid=uid, slug=slug, status=status):
            raise LookupError(slug)
        return None
    before, row.status = row.status, status
    session.add(row)
    session.flush()
    return before


def statuses(*, session: Session, uid: str) -> dict[str, str]:
    """slug -> status, newest follow first."""
    rows = session.exec(
        select(Follow.series_slug, Follow.status).where(Follow.uid == uid)
        .order_by(col(Follow.created_at).desc(), col(Follow.id).desc())
    )
    return {slug: status for slug, status in rows}


def library(*, session: Session, uid: str) -> list[Follow]:
    """The user's follows, newest first."""
    return list(session.exec(select(Follow).where(Follow.uid == uid).order_by(col(Follow.created_at).desc(), col(Follow.id).desc())))


def mark_opened(*, session: Session, uid: str, slug: str, now: datetime | None = None) -> bool:
    """The user opened the series (its title page): its 更新あり is seen."""
    row = _follow_row(session, uid, slug)
    if row is None:
        return False
    row.opened_at = now or utc_now()
    session.add(row)
    session.flush()
    return True


def unfollow(*, session: Session, uid: str, slug: str) -> bool:
    result = session.exec(delete(Follow).where(Follow.uid == uid, Follow.series_slug == slug))
    return bool(result.rowcount)


def count_follows(*, session: Session, uid: str) -> int:
    return session.exec(select(func.count()).select_from(Follow).where(Follow.uid == uid)).one()


def count_followers(*, session: Session, slug: str) -> int:
    """How many accounts follow a series (ix_follow_series_slug)."""
    return session.exec(select(func.count()).select_from(Follow).where(Follow.series_slug == slug)).one()


def merge_user(*, session: Session, source_uid: str, target_uid: str) -> None:
    """Move everything of `source_uid` (an anonymous account) into
    `target_uid`: follows are united (with their statuses and when they were
    added; a series both follow keeps the target's status), positions merged
    newest-wins; the source account is then deleted."""
    if source_uid == target_uid:
        return
    for row in reversed(library(session=session, uid=source_uid)):
        follow(session=session, uid=target_uid, slug=row.series_slug, now=row.created_at, status=row.status,
               opened_at=row.opened_at)
    progress.move_progress(session=session, source_uid=source_uid, target_uid=target_uid)
    session.exec(delete(Follow).where(Follow.uid == source_uid))
    session.exec(delete(UserAccount).where(UserAccount.uid == source_uid))
    session.flush()
