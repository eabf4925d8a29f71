"""New chapters and volumes of the series a reader follows: keyword-only
queries taking a session. Callers commit.

Nothing is stored per follower when a unit is published: a unit is new to a
reader when it was published after they followed its series, and unseen
when it was also published after their one notification mark
(UserAccount.notifications_seen_at). Publishing to a series with 100,000
followers therefore writes what it writes with none."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select, update

from manga_app.accounts.models import Follow, UserAccount
from manga_app.catalogue.models import Chapter, Series
from manga_app.read_models.titles import ChapterView, chapter_view

# What /notifications lists (newest first); older units are in the series' chapter list.
LIST_LIMIT = 50


@dataclass(frozen=True)
class NewUnit:
    series_slug: str
    unit: ChapterView
    seen: bool


def _new_units(uid: str, seen_at: datetime | None):
    """Units of the user's followed series published after the follow (and after `seen_at`)."""
    query = (
        select(Series.slug, Chapter)
        .join(Follow, (Follow.series_slug == Series.slug) & (Follow.uid == uid))
        .join(Chapter, Chapter.series_id == Series.id)
        .where(Chapter.published_at > Follow.created_at)
    )
    return query.where(Chapter.published_at > seen_at) if seen_at is not None else query


def seen_at(*, session: Session, uid: str) -> datetime | None:
    return session.exec(select(UserAccount.notifications_seen_at).where(UserAccount.uid == uid)).first()


def unseen_count(*, session: Session, uid: str) -> int:
    """How many new units the user has not seen: one query."""
    mark = select(UserAccount.notifications_seen_at).where(UserAccount.uid == uid).scalar_subquery()
    query = (
        select(func.count())
        .select_from(Follow)
        .join(Series, Series.slug == Follow.series_slug)
        .join(Chapter, Chapter.series_id == Series.id)
        .where(Follow.uid == uid, Chapter.published_at > Follow.created_at)
        .where((mark == None) | (Chapter.published_at > mark))  # noqa: E711 (SQL NULL)
    )
    return session.exec(query).one()


def recent(*, session: Session, uid: str, limit: int = LIST_LIMIT) -> list[NewUnit]:
    """The newest new units first, each saying whether it was seen."""
    mark = seen_at(session=session, uid=uid)
    rows = session.exec(
        _new_units(uid, None).order_by(col(Chapter.published_at).desc(), col(Chapter.id).desc()).limit(limit)
    ).all()
    return [NewUnit(slug, chapter_view(slug, chapter), mark is not None and chapter.published_at <= mark)
            for slug, chapter in rows]


def mark_seen(*, session: Session, uid: str, at: datetime) -> None:
    """Everything published up to `at` is seen (the mark never moves back)."""
    session.exec(
        update(UserAccount)
        .where(col(UserAccount.uid) == uid)
        .where((col(UserAccount.notifications_seen_at) == None) | (col(UserAccount.notifications_seen_at) < at))  # noqa: E711
        .values(notifications_seen_at=at)
    )
