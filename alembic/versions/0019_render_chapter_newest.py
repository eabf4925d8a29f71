"""chapter (series, published) index: a library's newest unit per series in one index probe

The library's unread counts (accounts/unread.py) read each followed
series' newest publication, max(published_at) for one series: with only
ix_chapter_series_unit_published (series, unit, published) every unit of
the series is read for it; with (series_id, published_at) the database
reads one entry (PostgreSQL's min/max rewrite, SQLite's too). bench_library,
500 series of 40 units on PostgreSQL: that part of the query 6x cheaper
(issue 33).

Revision ID: 0019_render_chapter_newest
Revises: 0018_schedule_scan_interval
Create Date: 2026-11-28 15:40:00

"""
from typing import Sequence, Union

from alembic import op

revision: str = "0019_render_chapter_newest"
down_revision: Union[str, None] = "0018_schedule_scan_interval"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index("ix_chapter_series_published", "chapter", ["series_id", "published_at"])


def downgrade() -> None:
    op.drop_index("ix_chapter_series_published", table_name="chapter")
