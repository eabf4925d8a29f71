"""Account tables (plain SQLModel, migrated by Alembic: 0002).

Every row is keyed by the Firebase uid, and a uid only ever comes from a
verified ID token (verify.py). Series are referenced by slug, not id: a
re-import may renumber series, and a follow must survive that. Chapter
numbers are integer hundredths, as in the catalogue. Migrations: 0002, 0004, 0007, 0009, 0013, 0014."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from manga_app.catalogue.models import UTCDateTime, utc_now

__all__ = ["FeedKey", "Follow", "HistoryRemoval", "OpdsKey", "ReadingProgress", "UserAccount"]


class UserAccount(SQLModel, table=True):
    __tablename__ = "user_account"
    __table_args__ = {"extend_existing": True}

    uid: str = Field(primary_key=True, max_length=128)
    email: str = Field(default="", max_length=254)
    name: str = Field(default="", max_length=100)
    avatar: str = Field(default="", max_length=1000)
    is_anonymous: bool = False
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    # The reader's one notification mark (migration 0012): units of followed
    # series published after it (and after the follow) are unseen. Nothing
    # is written per follower when a unit is published.
    notifications_seen_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)


class _UserSeries(SQLModel):
    """A user's mark on one series (a follow, a removal from history): one
    row per user and series, gone with the account."""

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(max_length=128, foreign_key="user_account.uid", ondelete="CASCADE", index=True)
    series_slug: str = Field(max_length=100)

    @staticmethod
    def table_args(unique_name: str) -> tuple:
        """One row per user and series, its constraint named `unique_name`."""
        return sa.UniqueConstraint("uid", "series_slug", name=unique_name), {"extend_existing": True}


class Follow(_UserSeries, table=True):
    """A series in the user's library (a follow), with its reading-list
    status (lists.STATUSES) and when the user last opened the series."""

    __tablename__ = "follow"
    # A title page counts its followers (migration 0012).
    __table_args__ = (sa.Index("ix_follow_series_slug", "series_slug"), *_UserSeries.table_args("uq_follow_uid_series"))

    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    # 読みたい・読んでる・読了・中断 (migration 0012); a follow is 読んでる.
    status: str = Field(default="reading", max_length=16, sa_column_kwargs={"server_default": "reading"})
    # The title page was last opened (更新あり compares the newest unit with
    # this and the last reading time); None until then.
    opened_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)


class ReadingProgress(SQLModel, table=True):
    """Where a user is in one chapter; a row is also that chapter's read mark."""

    __tablename__ = "reading_progress"
    __table_args__ = (
        sa.UniqueConstraint("uid", "series_slug", "chapter_hundredths", name="uq_progress_uid_chapter"),
        sa.Index("ix_progress_uid_updated", "uid", "updated_at"),
        # A series' readers, newest first (reader/also_read.py). Migration 0012.
        sa.Index("ix_progress_series_updated", "series_slug", "updated_at"),
        {"extend_existing": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(max_length=128, foreign_key="user_account.uid", ondelete="CASCADE")
    series_slug: str = Field(max_length=100)
    chapter_hundredths: int
    page: int = 0
    offset: float = 0.0
    # The chapter's last page (or end card) was reached: it is read (既読).
    # Without it the chapter was left part-way, at `page`. Migration 0007.
    finished: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    # When the reader was at this position, by the reading device's clock
    # (clamped to the server's): the newest write wins across devices.
    updated_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


class HistoryRemoval(_UserSeries, table=True):
    """A tombstone: the user removed this series from their history (slug ""
    means the whole history was cleared). A browser's older copy of the
    entry, pushed later from another device or a later sign-in, must not
    bring it back; only a position read after the removal may."""

    __tablename__ = "history_removal"
    __table_args__ = _UserSeries.table_args("uq_removal_uid_series")

    removed_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


class _UserKey(SQLModel):
    """A user's secret key to personal feeds (one per user and kind). Only
    the key's sha256 is stored: the key itself is shown once, when created
    (accounts/opds_keys.py makes, checks and revokes both kinds)."""

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(max_length=128, foreign_key="user_account.uid", ondelete="CASCADE")
    key_hash: str = Field(max_length=64, unique=True, index=True)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


class OpdsKey(_UserKey, table=True):
    """The key to the personal OPDS catalogue (/opds/k/{key})."""

    __tablename__ = "opds_key"
    __table_args__ = (sa.UniqueConstraint("uid", name="uq_opds_key_uid"), {"extend_existing": True})


class FeedKey(_UserKey, table=True):
    """The key to the personal Atom feed (/feeds/k/{key}.atom): a key of its
    own, so a feed reader service that holds the URL cannot open the OPDS
    catalogue's downloads. Migration 0012."""

    __tablename__ = "feed_key"
    __table_args__ = (sa.UniqueConstraint("uid", name="uq_feed_key_uid"), {"extend_existing": True})
