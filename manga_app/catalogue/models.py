"""Catalogue tables (plain SQLModel, migrated by Alembic).

Conventions: datetimes are timezone-aware UTC in Python and `timestamp with
time zone` in PostgreSQL (SQLite has no zone, so `UTCDateTime` stores UTC and
re-attaches it on load). Chapter numbers are integer hundredths (see
`naming.to_hundredths`). Lists (aliases, authors) are JSON columns: they are
read with their series and never queried on their own.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

__all__ = [
    "AuditEntry", "CatalogueChange", "MetadataLock", "Chapter", "Genre", "Page", "PublishState", "Series", "SeriesGenre", "SeriesViewDay", "UTCDateTime",
    "utc_now",
]

STATUSES = ("ongoing", "completed")
DIRECTIONS = ("rtl", "ltr", "vertical")
UNIT_KINDS = ("chapter", "volume")


def utc_now() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(sa.types.TypeDecorator):
    """DateTime that refuses naive values and always returns aware UTC."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime; catalogue datetimes must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Series(SQLModel, table=True):
    __tablename__ = "series"
    __table_args__ = {"extend_existing": True}

    id: int | None = Field(default=None, primary_key=True)
    slug: str = Field(max_length=100, unique=True, index=True)
    title: str = Field(max_length=500)
    # NFKC + case-folded title: how a re-import finds the same series again.
    title_key: str = Field(max_length=500, unique=True, index=True)
    alt_titles: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    # One {"text", "hiragana", "katakana", "romaji"} per title and alias.
    readings: list[dict] = Field(default_factory=list, sa_type=sa.JSON)
    # Every title, alias, reading and romaji, NFKC and lower-cased, space-joined.
    search_text: str = Field(default="", sa_type=sa.Text)
    authors: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    artists: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    # ComicInfo Tags: shown beside the genres, never counted as genres.
    tags: list[str] = Field(default_factory=list, sa_type=sa.JSON)
    summary: str = Field(default="", sa_type=sa.Text)
    status: str = Field(default="ongoing", max_length=16)
    direction: str = Field(default="rtl", max_length=16)
    language: str = Field(default="ja", max_length=16)
    # "" unrated, "all", "r15", "r18" (metadata_form.AGE_RATINGS; migration 0012).
    age_rating: str = Field(default="", max_length=16, sa_column_kwargs={"server_default": ""})
    # sha256 of the cover source image; thumbnails are derived from it in the media store.
    cover_key: str | None = Field(default=None, max_length=64)
    views: int = Field(default=0)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime, index=True)


class Genre(SQLModel, table=True):
    __tablename__ = "genre"
    __table_args__ = {"extend_existing": True}

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=100, unique=True, index=True)


class SeriesGenre(SQLModel, table=True):
    __tablename__ = "series_genre"
    __table_args__ = {"extend_existing": True}

    series_id: int = Field(foreign_key="series.id", primary_key=True, ondelete="CASCADE")
    genre_id: int = Field(foreign_key="genre.id", primary_key=True, index=True, ondelete="CASCADE")


class Chapter(SQLModel, table=True):
    __tablename__ = "chapter"
    __table_args__ = (
        sa.UniqueConstraint("series_id", "number_hundredths", name="uq_chapter_series_number"),
        # The calendar reads the chapters of the last weeks (migration 0011).
        sa.Index("ix_chapter_published_at", "published_at"),
        # A library's unread counts and newest unit per series, from the index alone (migration 0012).
        sa.Index("ix_chapter_series_unit_published", "series_id", "number_hundredths", "published_at"),
        # ... and a series' newest publication in one index entry, not all its units (migration 0018).
        sa.Index("ix_chapter_series_published", "series_id", "published_at"),
        {"extend_existing": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    series_id: int = Field(foreign_key="series.id", index=True, ondelete="CASCADE")
    # The unit's key: 10.5 is stored as 1050, exact and portable (see
    # naming.py); a volume's key is routes.VOLUME_KEY plus its number.
    number_hundredths: int
    kind: str = Field(default="chapter", max_length=16, sa_column_kwargs={"server_default": "chapter"})
    title: str = Field(default="", max_length=500)
    slug: str = Field(default="", max_length=100)
    published_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)
    views: int = Field(default=0)
    page_count: int = Field(default=0)
    # Double-page view shows the first page alone so that the spreads start
    # pairs (spreads.spread_offset of the pages' sizes; migration 0008).
    spread_offset: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})
    # Absolute path it was imported from, with the size and mtime it had then
    # (unchanged: skipped without reading it) and the sha256 of its content
    # (what decides when size or mtime changed; see archives.SourceStat).
    source_path: str = Field(default="", sa_type=sa.Text, index=True)
    source_size: int = Field(default=0, sa_type=sa.BigInteger)
    source_mtime_ns: int = Field(default=0, sa_type=sa.BigInteger)
    fingerprint: str = Field(default="", max_length=200, index=True)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


class Page(SQLModel, table=True):
    __tablename__ = "page"
    __table_args__ = (
        sa.UniqueConstraint("chapter_id", "index", name="uq_page_chapter_index"),
        {"extend_existing": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    chapter_id: int = Field(foreign_key="chapter.id", index=True, ondelete="CASCADE")
    index: int
    # sha256 of the original bytes; derivatives are named after it (see media.py).
    media_key: str = Field(max_length=64, index=True)
    ext: str = Field(max_length=8)
    width: int
    height: int
    bytes: int
    # Its high-DPI AVIF is in the media store (written by `reencode`: catalogue/hidpi.py).
    hidpi: bool = Field(default=False, sa_column_kwargs={"server_default": "0"})


class CatalogueChange(SQLModel, table=True):
    """A series whose published form may have changed since the last publish.

    Written only by the database's own triggers (migration 0010), read and
    emptied by the publisher (changes.py). Tables rebuilt by a later SQLite
    batch migration lose their triggers: such a migration must create them again.
    """

    __tablename__ = "catalogue_change"
    __table_args__ = {"extend_existing": True}

    seq: int | None = Field(default=None, primary_key=True)
    series_id: int = Field(index=True)
    # The slug it was published under, when it was deleted or renamed.
    gone_slug: str | None = Field(default=None, max_length=100)


class PublishState(SQLModel, table=True):
    """The token of the publish that last took the change log (one row)."""

    __tablename__ = "publish_state"
    __table_args__ = {"extend_existing": True}

    id: int | None = Field(default=None, primary_key=True)
    token: str = Field(max_length=64)


class SeriesViewDay(SQLModel, table=True):
    """Views of a series counted on one day in Japan (migration 0011): what
    the ranking of any period adds up. Written with the running totals
    (repository.add_view), one upsert per counted view; days no period reads
    are pruned (view_history.prune_view_days).

    The key starts with the day, so a period's rows are one range of it and
    pruning is one range delete; that key is the table's only index. No
    foreign key: a deleted series' rows (no index by series to cascade
    through) are left out by every reader, which joins with `series`, and
    pruned with their days."""

    __tablename__ = "series_view_day"
    __table_args__ = {"extend_existing": True}

    day: date = Field(primary_key=True)
    series_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    views: int = Field(default=0)


class MetadataLock(SQLModel, table=True):
    """A field the operator edited (migration 0012): the importer leaves it
    as the operator set it, whatever the files say, until it is unlocked.
    `chapter_id` None: a field of the series; else of that unit."""

    __tablename__ = "metadata_lock"
    __table_args__ = (
        sa.UniqueConstraint("series_id", "chapter_id", "field", name="uq_metadata_lock"),
        {"extend_existing": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    series_id: int = Field(foreign_key="series.id", index=True, ondelete="CASCADE")
    chapter_id: int | None = Field(default=None, foreign_key="chapter.id", index=True, ondelete="CASCADE")
    field: str = Field(max_length=32)
    created_at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime)


class AuditEntry(SQLModel, table=True):
    """One change an operator made from the console (migration 0012): who,
    when, what, the value before and after (JSON text). Only ever inserted;
    no series or unit key, so it outlives what it names."""

    __tablename__ = "audit_log"
    __table_args__ = {"extend_existing": True}

    id: int | None = Field(default=None, primary_key=True)
    at: datetime = Field(default_factory=utc_now, sa_type=UTCDateTime, index=True)
    actor_uid: str = Field(max_length=128)
    actor_email: str = Field(default="", max_length=254)
    action: str = Field(max_length=32)
    # What was changed, as the operator reads it: "series 'slug' title".
    target: str = Field(max_length=300)
    before: str = Field(default="", sa_type=sa.Text)
    after: str = Field(default="", sa_type=sa.Text)
