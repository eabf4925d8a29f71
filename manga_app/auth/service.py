"""Account operations as the state calls them: one transaction each, run in
a worker thread (asyncio.to_thread). Every function takes the uid of a
verified token; series are checked against the catalogue by the caller."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session

from manga_app.auth import repository
from manga_app.auth.payloads import Position
from manga_app.auth.verify import VerifiedUser
from manga_app.catalogue.db import shared_engine


def sign_in(user: VerifiedUser) -> None:
    with Session(shared_engine()) as session:
        repository.upsert_user(session=session, user=user)
        session.commit()


def merge_browser_data(uid: str, *, follows: Iterable[str], latest: list[Position], marks: list[Position]) -> None:
    """A visitor's browser library joins their account (one transaction)."""
    with Session(shared_engine()) as session:
        for slug in reversed(list(follows)):
            repository.follow(session=session, uid=uid, slug=slug)
        for found in latest:
            repository.record_progress(session=session, uid=uid, slug=found.slug, chapter_hundredths=found.chapter_hundredths,
                                       page=found.page, offset=found.offset, at=found.at)
        for found in marks:
            repository.mark_read(session=session, uid=uid, slug=found.slug, chapter_hundredths=found.chapter_hundredths, at=found.at)
        session.commit()


def merge_accounts(source: VerifiedUser, target: VerifiedUser) -> None:
    with Session(shared_engine()) as session:
        repository.upsert_user(session=session, user=target)
        repository.merge_user(session=session, source_uid=source.uid, target_uid=target.uid)
        session.commit()


def set_follow(uid: str, slug: str, following: bool) -> bool:
    with Session(shared_engine()) as session:
        changed = (repository.follow if following else repository.unfollow)(session=session, uid=uid, slug=slug)
        session.commit()
        return changed


def followed(uid: str) -> list[str]:
    with Session(shared_engine()) as session:
        return repository.followed_slugs(session=session, uid=uid)


def history(uid: str) -> list[repository.HistoryRow]:
    with Session(shared_engine()) as session:
        return repository.history(session=session, uid=uid)


def record(uid: str, found: Position) -> bool:
    with Session(shared_engine()) as session:
        stored = repository.record_progress(session=session, uid=uid, slug=found.slug, chapter_hundredths=found.chapter_hundredths,
                                            page=found.page, offset=found.offset, at=found.at)
        session.commit()
        return stored


def forget(uid: str, slug: str | None) -> None:
    """Remove one series from the history, or all of it."""
    with Session(shared_engine()) as session:
        if slug is None:
            repository.clear_history(session=session, uid=uid)
        else:
            repository.remove_history(session=session, uid=uid, slug=slug)
        session.commit()


def unread(last_read: dict[str, int], slugs: list[str]) -> dict[str, int]:
    with Session(shared_engine()) as session:
        return repository.unread_counts(session=session, last_read=last_read, slugs=slugs)

