"""The reader's table (plain SQLModel, migrated by Alembic: 0003_chapter_views).

One row per visitor, chapter and day that counted as a view: the unique
constraint is what makes a view count once, whatever the number of tabs,
reloads or repeated events. Visitors and addresses are stored only as keyed
hashes, and rows older than yesterday are pruned (view_counts.py)."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

__all__ = ["ChapterViewMark"]


class ChapterViewMark(SQLModel, table=True):
    __tablename__ = "chapter_view"
    __table_args__ = (
        sa.UniqueConstraint("visitor", "chapter_id", "day", name="uq_chapter_view_visitor_day"),
        # Counting one address's views of a chapter today (the per-address cap).
        sa.Index("ix_chapter_view_chapter_day_address", "chapter_id", "day", "address"),
        {"extend_existing": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    # HMAC of "u:<uid>" or "b:<browser visitor id>", hex.
    visitor: str = Field(max_length=64)
    chapter_id: int = Field(foreign_key="chapter.id", ondelete="CASCADE")
    # The visitor's day in Japan (views reset at midnight JST).
    day: date = Field(index=True)
    # HMAC of the client address, hex ("" when unknown).
    address: str = Field(default="", max_length=64)
