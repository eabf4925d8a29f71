"""The reader's tables (plain SQLModel, migrated by Alembic: 0003_chapter_views,
0015_chapter_likes).

ChapterViewMark: one row per visitor, chapter and day that counted as a view:
the unique constraint is what makes a view count once, whatever the number
of tabs, reloads or repeated events. Rows older than yesterday are pruned
(view_counts.py).

ChapterLike: one row per reader and chapter that likes it (いいね), and
ChapterLikeCount the chapter's count, kept in the same transaction as the
rows (likes.py), so showing a count is one primary-key read. Visitors and
addresses are stored only as keyed hashes."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

__all__ = ["ChapterLike", "ChapterLikeCount", "ChapterViewMark"]


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


class ChapterLike(SQLModel, table=True):
    __tablename__ = "chapter_like"
    __table_args__ = (
        sa.UniqueConstraint("chapter_id", "liker", name="uq_chapter_like_chapter_liker"),
        # Counting one address's likes of a chapter today (the per-address cap).
        sa.Index("ix_chapter_like_chapter_day_address", "chapter_id", "day", "address"),
        {"extend_existing": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    chapter_id: int = Field(foreign_key="chapter.id", ondelete="CASCADE")
    # HMAC of "u:<uid>" or "b:<browser visitor id>", hex (view_counts.visitor_key).
    liker: str = Field(max_length=64)
    # The day in Japan it was liked, and the HMAC of the address ("" when unknown).
    day: date
    address: str = Field(default="", max_length=64)


class ChapterLikeCount(SQLModel, table=True):
    """The number of ChapterLike rows of a chapter (no row: none)."""

    __tablename__ = "chapter_like_count"
    __table_args__ = {"extend_existing": True}

    chapter_id: int = Field(primary_key=True, foreign_key="chapter.id", ondelete="CASCADE", sa_column_kwargs={"autoincrement": False})
    likes: int = Field(default=0)
