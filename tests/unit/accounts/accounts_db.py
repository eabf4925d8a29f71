"""Databases for the account tests: real SQLite and real PostgreSQL (a fresh
database per module, migrated by Alembic like production), users and a small
catalogue of series and chapters."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime

from sqlmodel import Session

from manga_app.accounts import repository
from manga_app.accounts.verify import VerifiedUser
from manga_app.core.db import migrate
from manga_app.catalogue.models import Chapter, Series
from tests.postgres import scratch_database

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def sqlite_url(folder) -> str:
    url = f"sqlite:///{folder / 'accounts.db'}"
    migrate(url)
    return url


def postgres_url() -> Iterator[str]:
    """A new, migrated PostgreSQL database, dropped afterwards."""
    with scratch_database("accounts_test") as url:
        yield url


def user(uid: str, *, anonymous: bool = False) -> VerifiedUser:
    return VerifiedUser(uid=uid, email="" if anonymous else f"{uid}@example.com", name=uid, avatar="",
                        is_anonymous=anonymous, provider="anonymous" if anonymous else "google.com")


def two_users(session: Session) -> tuple[str, str]:
    a, b = f"a-{uuid.uuid4().hex[:8]}", f"b-{uuid.uuid4().hex[:8]}"
    repository.upsert_user(session=session, user=user(a))
    repository.upsert_user(session=session, user=user(b))
    return a, b


def add_series(session: Session, slug: str, chapters: dict[int, str], *, updated: datetime = T0, pages: int = 1) -> Series:
    """A series with chapters {hundredths: title} of `pages` pages each."""
    series = Series(slug=slug, title=f"{slug}の題", title_key=slug, search_text=slug, created_at=T0, updated_at=updated)
    session.add(series)
    session.flush()
    for number, title in chapters.items():
        session.add(Chapter(series_id=series.id, number_hundredths=number, title=title, slug=f"c{number}", published_at=updated,
                            page_count=pages, source_path="x", fingerprint=f"{slug}{number}", created_at=T0))
    session.flush()
    return series
