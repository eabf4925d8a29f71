"""いいね on the server: one per reader and chapter, toggled.

A reader is who view_counts.py counts as a visitor: the browser's random id
and, signed in, the account (guests included), each stored only as a keyed
hash. A chapter is liked by a reader when any of the reader's keys has a
like row; liking inserts one row (under the account's key when signed in),
taking the like back removes the rows of every key. The chapter's count is
its rows, kept in ChapterLikeCount in the same transaction, so the count is
one primary-key read and never drifts from the rows.

The defence against inflated counts is the view counter's: the database's
unique constraint decides (a repeated or concurrent like inserts nothing),
and an address is capped per chapter and day, so a script that drops its
browser id (or makes a new guest account) each time cannot add likes
without bound."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session

from manga_app.catalogue.models import Chapter
from manga_app.core.config import content_key, get_settings
from manga_app.core.db import shared_engine
from manga_app.engagement.models import ChapterLike, ChapterLikeCount
from manga_app.engagement.view_counts import address_key, hashing_secret, visitor_key

# Likes counted per address, chapter and day: as for views, mobile carriers
# put many people behind one address, so this bounds abuse, not people.
MAX_LIKES_PER_ADDRESS = 50


@dataclass(frozen=True)
class LikeState:
    """What the end card shows: the chapter's count and whether this reader likes it."""

    likes: int
    liked: bool


class AddressCapReached(Exception):
    """This address has liked the chapter too often today."""


def _dialect(session: Session):
    return postgresql if session.get_bind().dialect.name == "postgresql" else sqlite


def count_of(*, session: Session, chapter_id: int) -> int:
    """The chapter's likes: one primary-key read."""
    found = session.get(ChapterLikeCount, chapter_id)
    return found.likes if found is not None else 0


def liked_by(*, session: Session, chapter_id: int, keys: Sequence[str]) -> bool:
    keys = [key for key in keys if key]
    if not keys:
        return False
    query = sa.select(ChapterLike.id).where(ChapterLike.chapter_id == chapter_id, ChapterLike.liker.in_(keys)).limit(1)
    return session.execute(query).first() is not None


def state_of(*, session: Session, chapter_id: int, keys: Sequence[str]) -> LikeState:
    return LikeState(count_of(session=session, chapter_id=chapter_id), liked_by(session=session, chapter_id=chapter_id, keys=keys))


def _add_to_count(session: Session, chapter_id: int, change: int) -> None:
    dialect = _dialect(session)
    statement = dialect.insert(ChapterLikeCount).values(chapter_id=chapter_id, likes=max(change, 0))
    statement = statement.on_conflict_do_update(
        index_elements=["chapter_id"], set_={"likes": ChapterLikeCount.likes + change}
    )
    session.execute(statement)


def likes_from_address(*, session: Session, chapter_id: int, day: date, address: str) -> int:
    query = sa.select(sa.func.count()).where(
        ChapterLike.chapter_id == chapter_id, ChapterLike.day == day, ChapterLike.address == address
    )
    return int(session.execute(query).scalar_one())


def set_like(
    *,
    session: Session,
    chapter_id: int,
    keys: Sequence[str],
    liked: bool,
    address: str,
    day: date,
    max_per_address: int = MAX_LIKES_PER_ADDRESS,
) -> LikeState:
    """The reader's like of the chapter as asked: `liked` under `keys[0]` (the
    account's key when signed in), else taken back under every key. Asking
    for what already is changes nothing, so a browser may send it again
    (what it sent when the connection went may or may not have arrived).
    Commits; raises AddressCapReached (nothing written) when the address is
    over its cap for the day."""
    keys = list(dict.fromkeys(key for key in keys if key))
    if not keys:
        raise ValueError("a like needs the reader's key")
    if not liked:
        removed = session.execute(
            sa.delete(ChapterLike).where(ChapterLike.chapter_id == chapter_id, ChapterLike.liker.in_(keys)).returning(ChapterLike.id)
        ).all()
        if removed:
            _add_to_count(session, chapter_id, -len(removed))
        session.commit()
        return LikeState(count_of(session=session, chapter_id=chapter_id), False)
    if liked_by(session=session, chapter_id=chapter_id, keys=keys):
        session.rollback()
        return LikeState(count_of(session=session, chapter_id=chapter_id), True)
    if address and likes_from_address(session=session, chapter_id=chapter_id, day=day, address=address) >= max_per_address:
        session.rollback()
        raise AddressCapReached
    inserted = session.execute(
        _dialect(session).insert(ChapterLike)
        .values(chapter_id=chapter_id, liker=keys[0], day=day, address=address)
        .on_conflict_do_nothing(index_elements=["chapter_id", "liker"])
        .returning(ChapterLike.id)
    ).all()
    if inserted:  # else a concurrent like of the same reader won: it counted once
        _add_to_count(session, chapter_id, 1)
    session.commit()
    return LikeState(count_of(session=session, chapter_id=chapter_id), True)


def merge_likes(*, session: Session, source: str, target: str) -> None:
    """A guest's likes (key `source`) become the account's (`target`) when the
    guest signs in to it: a chapter both liked keeps one like. The caller commits."""
    both = sa.select(ChapterLike.chapter_id).where(ChapterLike.liker == target).scalar_subquery()
    doubled = session.execute(
        sa.delete(ChapterLike).where(ChapterLike.liker == source, ChapterLike.chapter_id.in_(both)).returning(ChapterLike.chapter_id)
    ).scalars().all()
    for chapter_id in doubled:
        _add_to_count(session, chapter_id, -1)
    session.execute(sa.update(ChapterLike).where(ChapterLike.liker == source).values(liker=target))


def merge_account_likes(session: Session, source_uid: str, target_uid: str) -> None:
    secret = hashing_secret(content_key(get_settings()))
    merge_likes(session=session, source=visitor_key(secret, "u", source_uid), target=visitor_key(secret, "u", target_uid))


def reader_keys(*, browser_id: str, uid: str) -> list[str]:
    """The reader's keys, the account's first (the one a new like is kept under)."""
    secret = hashing_secret(content_key(get_settings()))
    keys = [visitor_key(secret, "u", uid)] if uid else []
    return keys + ([visitor_key(secret, "b", browser_id)] if browser_id else [])


def chapter_like_state(chapter_id: int, *, browser_id: str, uid: str) -> LikeState:
    with Session(shared_engine()) as session:
        return state_of(session=session, chapter_id=chapter_id, keys=reader_keys(browser_id=browser_id, uid=uid))


def set_chapter_like(chapter_id: int, liked: bool, *, browser_id: str, uid: str, address: str, day: date) -> LikeState | None:
    """The end card's call: None when the chapter is (no longer) there."""
    secret = hashing_secret(content_key(get_settings()))
    with Session(shared_engine()) as session:
        if session.get(Chapter, chapter_id) is None:
            return None
        return set_like(session=session, chapter_id=chapter_id, keys=reader_keys(browser_id=browser_id, uid=uid),
                        liked=liked, address=address_key(secret, address), day=day,
                        max_per_address=get_settings().visitors_per_address)
