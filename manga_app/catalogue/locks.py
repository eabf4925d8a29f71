"""Fields the operator edited, locked against what the files say on the next
import (the importer asks here before it writes one), until unlocked.
Nothing here commits: the caller owns the transaction."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.models import MetadataLock

__all__ = ["SERIES_FIELDS", "UNIT_FIELDS", "lock", "locked", "unlock"]

# What the console edits, by the names the locks and the audit log use.
SERIES_FIELDS = (
    "title", "readings", "alt_titles", "authors", "artists", "summary", "genres", "tags", "status", "direction",
    "age_rating", "cover",
)
UNIT_FIELDS = ("title",)


def _where(series_id: int, chapter_id: int | None):
    return sa.and_(
        MetadataLock.series_id == series_id,
        MetadataLock.chapter_id.is_(None) if chapter_id is None else MetadataLock.chapter_id == chapter_id,
    )


def locked(session: Session, series_id: int | None, chapter_id: int | None = None) -> frozenset[str]:
    """The locked fields of a series (`chapter_id` None) or of one of its units."""
    if series_id is None:
        return frozenset()
    return frozenset(session.exec(select(MetadataLock.field).where(_where(series_id, chapter_id))))


def lock(session: Session, series_id: int, fields: set[str] | frozenset[str], chapter_id: int | None = None) -> None:
    allowed = UNIT_FIELDS if chapter_id is not None else SERIES_FIELDS
    unknown = set(fields) - set(allowed)
    if unknown:
        raise ValueError(f"not a lockable field: {', '.join(sorted(unknown))}")
    have = locked(session, series_id, chapter_id)
    session.add_all(MetadataLock(series_id=series_id, chapter_id=chapter_id, field=field)
                    for field in sorted(set(fields) - have))
    session.flush()


def unlock(session: Session, series_id: int, field: str, chapter_id: int | None = None) -> bool:
    """Whether the field was locked (it is not any more)."""
    result = session.execute(sa.delete(MetadataLock).where(_where(series_id, chapter_id), MetadataLock.field == field))
    return bool(result.rowcount)
