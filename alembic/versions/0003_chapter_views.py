"""chapter views: one row per visitor, chapter and day

Revision ID: 0003_chapter_views
Revises: 0002
Create Date: 2026-11-23 09:00:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0003_chapter_views"
down_revision: Union[str, None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "chapter_view",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("visitor", sa.String(length=64), nullable=False),
        sa.Column("chapter_id", sa.Integer(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["chapter_id"], ["chapter.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("visitor", "chapter_id", "day", name="uq_chapter_view_visitor_day"),
    )
    with op.batch_alter_table("chapter_view", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chapter_view_day"), ["day"], unique=False)
        batch_op.create_index("ix_chapter_view_chapter_day_address", ["chapter_id", "day", "address"], unique=False)


def downgrade() -> None:
    op.drop_table("chapter_view")
