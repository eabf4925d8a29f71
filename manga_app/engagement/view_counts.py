"""Counting chapter views on the server: once per visitor, chapter and day.

A view counts only when its marks insert: the table's unique constraint
(reading_models.ChapterViewMark) decides, so concurrent tabs, reloads and a
repeated event never count twice, and nothing the browser says about earlier
views is trusted. A visitor may carry several keys (the browser's random id
and, signed in, the account): the view counts only when none of them has
seen the chapter that day. An address is capped per chapter and day, so a
scripted client that drops its id each time cannot inflate the count without
bound. Identifiers are stored as keyed hashes only."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from datetime import date, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session

from manga_app.catalogue import repository, view_history
from manga_app.core.db import shared_engine
from manga_app.core.config import content_key, get_settings
from manga_app.engagement.models import ChapterViewMark

# Distinct visitors counted per address, chapter and day. Mobile carriers put
# many people behind one address, so this bounds abuse rather than people.
MAX_VIEWS_PER_ADDRESS = 50
# Marks of today and yesterday are kept (a day boundary is crossed while a
# visitor reads); anything older only takes space.
KEEP_DAYS = 2


def hashing_secret(content_key: str) -> bytes:
    """A secret for the hashes, derived from the deployment's content key so
    no new configuration is needed, and distinct from the key itself."""
    return hashlib.sha256(b"manga-app chapter views\0" + content_key.encode("utf-8")).digest()


def visitor_key(secret: bytes, kind: str, value: str) -> str:
    """`kind` is "u" (a verified account uid) or "b" (a browser's random id)."""
    return hmac.new(secret, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def address_key(secret: bytes, address: str) -> str:
    return hmac.new(secret, f"a:{address}".encode(), hashlib.sha256).hexdigest() if address else ""


def _insert(session: Session):
    dialect = session.get_bind().dialect.name
    return (postgresql if dialect == "postgresql" else sqlite).insert(ChapterViewMark)


def views_from_address(*, session: Session, chapter_id: int, day: date, address: str) -> int:
    query = sa.select(sa.func.count(sa.distinct(ChapterViewMark.visitor))).where(
        ChapterViewMark.chapter_id == chapter_id, ChapterViewMark.day == day, ChapterViewMark.address == address
    )
    return int(session.execute(query).scalar_one())


def record_view(
    *,
    session: Session,
    series_id: int,
    chapter_id: int,
    visitors: Sequence[str],
    address: str,
    day: date,
    max_per_address: int = MAX_VIEWS_PER_ADDRESS,
) -> bool:
    """Mark the chapter as seen today by each of `visitors` (hashed keys) and
    count one view when every mark is new. Returns whether it counted."""
    keys = list(dict.fromkeys(key for key in visitors if key))
    if not keys:
        return False
    if address and views_from_address(session=session, chapter_id=chapter_id, day=day, address=address) >= max_per_address:
        return False
    inserted = 0
    for key in keys:
        statement = (
            _insert(session)
            .values(visitor=key, chapter_id=chapter_id, day=day, address=address)
            .on_conflict_do_nothing(index_elements=["visitor", "chapter_id", "day"])
            # A row comes back only when the mark was inserted (rowcount is
            # not reliable with every driver).
            .returning(ChapterViewMark.id)
        )
        inserted += len(session.execute(statement).all())
    if inserted == len(keys):
        # Same transaction as the marks: a view is counted exactly when they are.
        repository.add_view(session=session, series_id=series_id, chapter_id=chapter_id, day=day)
        return True
    session.commit()
    return False


def prune_views(*, session: Session, today: date, keep_days: int = KEEP_DAYS) -> int:
    """Forget marks older than `keep_days` days; returns how many went."""
    cutoff = today - timedelta(days=keep_days - 1)
    result = session.execute(sa.delete(ChapterViewMark).where(ChapterViewMark.day < cutoff))
    session.commit()
    return result.rowcount or 0


# The day this process last pruned old marks.
_pruned_on: date | None = None


def count_chapter_view(slug: str, number: str, *, browser_id: str, uid: str, address: str, day: date) -> bool:
    """The reader's call: this visitor (the browser's random id and, signed
    in, the verified uid) opened chapter `number` of `slug` on `day`. Counts
    at most once; prunes old marks and view days once a day per process."""
    global _pruned_on
    secret = hashing_secret(content_key(get_settings()))
    visitors = [visitor_key(secret, "b", browser_id)] + ([visitor_key(secret, "u", uid)] if uid else [])
    with Session(shared_engine()) as session:
        if _pruned_on != day:
            prune_views(session=session, today=day)
            view_history.prune_view_days(session=session, today=day)
            _pruned_on = day
        chapter = repository.get_chapter(session=session, series_slug=slug, number=number)
        if chapter is None:
            return False
        return record_view(
            session=session,
            series_id=chapter.series_id,
            chapter_id=chapter.id,
            visitors=visitors,
            address=address_key(secret, address),
            day=day,
            max_per_address=get_settings().visitors_per_address,
        )
