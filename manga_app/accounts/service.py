"""Account operations as the state calls them: one transaction each, run in
a worker thread (asyncio.to_thread). Every function takes the uid of a
verified token; series are checked against the catalogue by the caller."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlmodel import Session

from manga_app.accounts import notifications, opds_keys, own_data, progress, repository, unread
from manga_app.accounts.models import FeedKey
from manga_app.accounts.payloads import BrowserFollow, Position, parse_time
from manga_app.accounts.verify import VerifiedUser
from manga_app.core.config import content_key, get_settings
from manga_app.core.db import shared_engine
from manga_app.engagement.view_counts import hashing_secret, visitor_key
from manga_app.engagement import likes


class FollowLimitReached(Exception):
    """Following one more series would pass repository.MAX_FOLLOWS."""


def sign_in(user: VerifiedUser) -> None:
    with Session(shared_engine()) as session:
        repository.upsert_user(session=session, user=user)
        session.commit()


def merge_browser_data(
    uid: str, *, follows: Iterable[str | BrowserFollow] = (), latest: list[Position], marks: list[Position]
) -> int:
    """A browser's library joins the account (one transaction): a guest's on
    sign-in, or what this account read in the browser since the last sync.
    Positions the user removed later stay removed. Returns how many follows
    were refused by the follow limit."""
    refused = 0
    with Session(shared_engine()) as session:
        for entry in reversed(list(follows)):
            entry = BrowserFollow(entry) if isinstance(entry, str) else entry
            if repository.is_following(session=session, uid=uid, slug=entry.slug):
                continue
            refused += not repository.follow(session=session, uid=uid, slug=entry.slug, status=entry.status,
                                             now=parse_time(entry.added))
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
        likes.merge_account_likes(session, source.uid, target.uid)
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


def statuses(uid: str) -> dict[str, str]:
    """slug -> reading-list status, newest follow first."""
    with Session(shared_engine()) as session:
        return repository.statuses(session=session, uid=uid)


def set_status(uid: str, slug: str, status: str) -> str | None:
    """The status it had (None: it was not in the library and is now);
    FollowLimitReached when there is no room for it (nothing changes)."""
    with Session(shared_engine()) as session:
        try:
            before = repository.set_status(session=session, uid=uid, slug=slug, status=status)
        except LookupError:
            raise FollowLimitReached(slug) from None
        session.commit()
        return before


def mark_opened(uid: str, slug: str) -> bool:
    with Session(shared_engine()) as session:
        marked = repository.mark_opened(session=session, uid=uid, slug=slug)
        session.commit()
        return marked


def account_library(uid: str) -> list[unread.SeriesFigures]:
    with Session(shared_engine()) as session:
        return unread.account_library(session=session, uid=uid)


def browser_library(entries: list[unread.BrowserEntry]) -> list[unread.SeriesFigures]:
    with Session(shared_engine()) as session:
        return unread.browser_library(session=session, entries=entries)


def series_units(slug: str) -> tuple[str, list[int]] | None:
    with Session(shared_engine()) as session:
        return unread.series_units(session=session, slug=slug)

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


def _visitor(uid: str) -> str:
    """The account's keyed hash in tables that store visitors (views, likes)."""
    return visitor_key(hashing_secret(content_key(get_settings())), "u", uid)


def export_account(uid: str) -> dict:
    with Session(shared_engine()) as session:
        return own_data.export(session=session, uid=uid, visitor=_visitor(uid))


def delete_account(uid: str) -> dict[str, int]:
    """Every row of the account, in one transaction (the sign-in account is the caller's next step)."""
    with Session(shared_engine()) as session:
        deleted = own_data.delete(session=session, uid=uid, visitor=_visitor(uid))
        session.commit()
    return deleted

def unseen_notifications(uid: str, followed: list[str]) -> int:
    """The header's count. An empty library asks the database nothing."""
    if not uid or not followed:
        return 0
    with Session(shared_engine()) as session:
        return notifications.unseen_count(session=session, uid=uid)


def read_notifications(uid: str) -> list[notifications.NewUnit]:
    """/notifications: the newest new units; viewing them marks them seen."""
    with Session(shared_engine()) as session:
        found = notifications.recent(session=session, uid=uid)
        if found:
            notifications.mark_seen(session=session, uid=uid, at=found[0].unit.published_at)
            session.commit()
        return found


def create_feed_key(uid: str) -> str:
    """A new personal Atom feed key (the old one stops working)."""
    with Session(shared_engine()) as session:
        key = opds_keys.create_key(session=session, uid=uid, table=FeedKey)
        session.commit()
        return key


def revoke_feed_key(uid: str) -> bool:
    with Session(shared_engine()) as session:
        revoked = opds_keys.revoke_key(session=session, uid=uid, table=FeedKey)
        session.commit()
        return revoked


def feed_key_created_at(uid: str) -> datetime | None:
    with Session(shared_engine()) as session:
        return opds_keys.key_created_at(session=session, uid=uid, table=FeedKey)
