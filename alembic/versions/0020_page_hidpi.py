"""page.hidpi: the page has its high-DPI AVIF (1,600 px) in the media store

Written by `reencode` once the copy exists (catalogue/hidpi.py), so the
publisher names it in the chapter's manifest; the page's update is logged by
the catalogue_change triggers (0010), so the next publish rewrites that
chapter's series. Pages imported before have none yet: the next `reencode`
writes them for every page at least 1,440 px wide.

Revision ID: 0020_page_hidpi
Revises: 0019_render_chapter_newest
Create Date: 2026-12-01 18:20:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0020_page_hidpi"
down_revision: Union[str, None] = "0019_render_chapter_newest"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Plain ALTER TABLE statements: a batch copy of `page` on SQLite would drop its triggers (0010).
    op.add_column("page", sa.Column("hidpi", sa.Boolean(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_column("page", "hidpi")  # SQLite >= 3.35 drops a column in place
