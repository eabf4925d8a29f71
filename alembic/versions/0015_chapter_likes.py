"""chapter likes: いいね per reader and chapter, with each chapter's count

Also indexes reading positions by series, which the end card's "readers of
this series also read" (reader/also_read.py) reads for one series at a time.

Revision ID: 0015_chapter_likes
Revises: 0014_notifications_feed_keys
Create Date: 2026-11-28 08:30:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0015_chapter_likes"
down_revision: Union[str, None] = "0014_notifications_feed_keys"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "chapter_like",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chapter_id", sa.Integer(), nullable=False),
        sa.Column("liker", sa.String(length=64), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["chapter_id"], ["chapter.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("chapter_id", "liker", name="uq_chapter_like_chapter_liker"),
    )
    op.create_index("ix_chapter_like_chapter_day_address", "chapter_like", ["chapter_id", "day", "address"])
    op.create_table(
        "chapter_like_count",
        sa.Column("chapter_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("likes", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["chapter_id"], ["chapter.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("chapter_id"),
    )
    op.create_index("ix_progress_series_updated", "reading_progress", ["series_slug", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_progress_series_updated", table_name="reading_progress")
    op.drop_table("chapter_like_count")
    op.drop_index("ix_chapter_like_chapter_day_address", table_name="chapter_like")
    op.drop_table("chapter_like")
