"""follow series index: a title page counts the accounts following its series

Revision ID: 0016_follow_series_index
Revises: 0015_chapter_likes
Create Date: 2026-11-28 08:40:00

"""
from typing import Sequence, Union

from alembic import op

revision: str = "0016_follow_series_index"
down_revision: Union[str, None] = "0015_chapter_likes"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index("ix_follow_series_slug", "follow", ["series_slug"])


def downgrade() -> None:
    op.drop_index("ix_follow_series_slug", table_name="follow")
