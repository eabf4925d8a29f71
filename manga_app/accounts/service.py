"""Account operations as the state calls them: one transaction each, run in
a worker thread (asyncio.to_thread). Every function takes the uid of a
verified token; series are checked against the catalogue by the caller."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlmodel import Session

from manga_app.accounts import opds_keys, progress, repository
from manga_app.accounts.payloads import Position
from manga_app.accounts.verify import VerifiedUser
from manga_app.core.db import shared_engine


class FollowLimitReached(Exception):
    """Following one more series would pass repository.MAX_FOLLOWS."""


def sign_in(user: VerifiedUser) -> None:
    with Session(shared_engine()) as session:
        repository.upsert_user(session=session, user=user)
        session.commit()


def merge_browser_data(uid: str, *, follows: Iterable[str] = (), latest: list[Position], marks: list[Position]) -> int:
    """A browser's library joins the account (one transaction): a guest's on
    sign-in, or what this account read in the browser since the last sync.
    Positions the user removed later stay removed. Returns how many follows
    were refused by the follow limit."""
    refused = 0
    with Session(shared_engine()) as session:
        for slug in reversed(list(follows)):
            if repository.is_following(session=session, uid=uid, slug=slug):
                continue
            refused += not repository.follow(session=session, uid=uid, slug=slug)
        removed = progress.removals(session=session, uid=uid)
        for found in latest:
            if not progress.removed_before(removed, found.slug, found.at):
                _record(session, uid, found)
        for found in marks:
            if progress.removed_before(removed, found.slug, found.at):
                continue
            if found.finished:
                progress.mark_read(session=session, uid=uid, slug=found.slug, chapter_hundredths=found.chapter_hundredths, at=found.at)
            else:
                _record(session, uid, found)
        progress.prune_progress(session=session, uid=uid)
        session.commit()
    return refused


def merge_accounts(source: VerifiedUser, target: VerifiedUser) -> None:
    with Session(shared_engine()) as session:
        repository.upsert_user(session=session, user=target)
        repository.merge_user(session=session, source_uid=source.uid, target_uid=target.uid)
        session.commit()


def set_follow(uid: str, slug: str, following: bool) -> bool:
    """True when something changed; FollowLimitReached when following one
    more is not allowed (nothing changes)."""
    with Session(shared_engine()) as session:
        if following and not repository.is_following(session=session, uid=uid, slug=slug):
            if repository.count_follows(session=session, uid=uid) >= repository.MAX_FOLLOWS:
                raise FollowLimitReached(slug)
        changed = (repository.follow if following else repository.unfollow)(session=session, uid=uid, slug=slug)
        session.commit()
        return changed


def followed(uid: str) -> list[str]:
    with Session(shared_engine()) as session:
        return repository.followed_slugs(session=session, uid=uid)


def followers(slug: str) -> int:
    """The accounts following a series (a guest's follows stay in their browser, uncounted)."""
    with Session(shared_engine()) as session:
        return repository.count_followers(session=session, slug=slug)


def history(uid: str) -> list[progress.HistoryRow]:
    with Session(shared_engine()) as session:
        return progress.history(session=session, uid=uid)


def _record(session: Session, uid: str, found: Position) -> bool:
    return progress.record_progress(session=session, uid=uid, slug=found.slug, chapter_hundredths=found.chapter_hundredths,
                                    page=found.page, offset=found.offset, at=found.at, finished=found.finished)


def chapter_page_count(slug: str, chapter_hundredths: int) -> int | None:
    """The chapter's page count; None when the catalogue has no such chapter."""
    with Session(shared_engine()) as session:
        return progress.chapter_page_count(session=session, slug=slug, chapter_hundredths=chapter_hundredths)


def record(uid: str, found: Position) -> bool:
    """A position the reader reports live. It wins over a removal made
    before it: the visitor is reading the series again."""
    with Session(shared_engine()) as session:
        stored = _record(session, uid, found)
        if stored:
            progress.prune_progress(session=session, uid=uid)
        session.commit()
        return stored


def forget(uid: str, slug: str | None, *, now: datetime) -> int:
    """Remove one series from the history, or all of it (slug None), with a
    tombstone; how many progress rows went."""
    with Session(shared_engine()) as session:
        if slug is None:
            removed = progress.clear_history(session=session, uid=uid, now=now)
        else:
            removed = progress.remove_history(session=session, uid=uid, slug=slug, now=now)
        session.commit()
        return removed


def new_chapters(last_read: dict[str, datetime]) -> dict[str, int]:
    with Session(shared_engine()) as session:
        return progress.new_chapter_counts(session=session, last_read=last_read)


def create_opds_key(uid: str) -> str:
    """A new personal OPDS key (the old one stops working)."""
    with Session(shared_engine()) as session:
        key = opds_keys.create_key(session=session, uid=uid)
        session.commit()
        return key


def revoke_opds_key(uid: str) -> bool:
    with Session(shared_engine()) as session:
        revoked = opds_keys.revoke_key(session=session, uid=uid)
        session.commit()
        return revoked


def opds_key_created_at(uid: str) -> datetime | None:
    with Session(shared_engine()) as session:
        return opds_keys.key_created_at(session=session, uid=uid)


def opds_user(key: str) -> str | None:
    """The uid a personal OPDS key belongs to (None: unknown or revoked)."""
    with Session(shared_engine()) as session:
        return opds_keys.uid_for_key(session=session, key=key)
