"""Which series changed since the last publish, as the database itself logged it.

Triggers (migration 0010) add a row to `catalogue_change` for every series
whose published form may have changed: its row, genre links, genre names,
chapters or pages were inserted, updated or deleted, by the importer, the
edit commands or anyone else. A publish takes the whole log at once (`take`):
it deletes the rows it read and, in the same transaction, hands the log a
new owner token. The publish record keeps the token its publish ended with;
the next publish trusts the log only while the token is still the one it
recorded, so a publish into another folder, or one interrupted after taking
rows, makes the next one publish everything again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session

from manga_app.catalogue.models import CatalogueChange, PublishState

__all__ = ["Taken", "take"]

_ROW = 1


@dataclass(frozen=True)
class Taken:
    """What a publish took from the log."""

    series_ids: frozenset[int]
    # Slugs series were published under before they were deleted or renamed.
    gone_slugs: frozenset[str]
    # The log's owner before and after the take (None: never published).
    previous_token: str | None
    token: str

    @property
    def nothing(self) -> bool:
        return not self.series_ids and not self.gone_slugs


def take(session: Session) -> Taken:
    """Empty the log and return what it held; committed before the publish
    reads anything, so a change made meanwhile waits for the next publish."""
    connection = session.connection()
    previous = connection.execute(sa.select(PublishState.token).where(PublishState.id == _ROW)).scalar()
    rows = connection.execute(
        sa.delete(CatalogueChange).returning(CatalogueChange.series_id, CatalogueChange.gone_slug)
    ).all()
    token = previous
    if rows or previous is None:
        token = secrets.token_hex(16)
        if previous is None:
            connection.execute(sa.insert(PublishState).values(id=_ROW, token=token))
        else:
            connection.execute(sa.update(PublishState).where(PublishState.id == _ROW).values(token=token))
    session.commit()
    return Taken(
        series_ids=frozenset(series_id for series_id, _ in rows),
        gone_slugs=frozenset(slug for _, slug in rows if slug),
        previous_token=previous,
        token=token,
    )
