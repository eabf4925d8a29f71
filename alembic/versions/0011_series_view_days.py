"""series view days: views per series and day in Japan, for rankings of any period

Also indexes chapters by publication time, which the weekday calendar reads
for the last weeks.

Revision ID: 0011_series_view_days
Revises: 0010_catalogue_changes
Create Date: 2026-11-28 05:30:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0011_series_view_days"
down_revision: Union[str, None] = "0010_catalogue_changes"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "series_view_day",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("series_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("views", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("day", "series_id"),
    )
    op.create_index("ix_chapter_published_at", "chapter", ["published_at"])


def downgrade() -> None:
    op.drop_index("ix_chapter_published_at", table_name="chapter")
    op.drop_table("series_view_day")
