"""history removals: tombstones that keep removed history entries removed

Revision ID: 0004_history_removals
Revises: 0003_chapter_views
Create Date: 2026-11-24 09:00:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0004_history_removals"
down_revision: Union[str, None] = "0003_chapter_views"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "history_removal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=128), nullable=False),
        sa.Column("series_slug", sa.String(length=100), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["uid"], ["user_account.uid"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid", "series_slug", name="uq_removal_uid_series"),
    )
    with op.batch_alter_table("history_removal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_history_removal_uid"), ["uid"], unique=False)


def downgrade() -> None:
    op.drop_table("history_removal")
