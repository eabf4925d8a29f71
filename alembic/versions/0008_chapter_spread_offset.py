"""catalogue: each chapter's double-page offset, from where its spreads fall

Revision ID: 0008_chapter_spread_offset
Revises: 0007_reading_finished
Create Date: 2026-11-26 06:00:00

Chapter.spread_offset says the reader's double-page view shows the first
page alone, so that the chapter's wide (spread) pages start pairs as they
were printed (manga_app.catalogue.spreads). The importer sets it; chapters
imported before are worked out here from the page sizes already stored,
so nothing needs re-importing.
"""
from itertools import groupby
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op
from manga_app.catalogue.spreads import spread_offset

revision: str = "0008_chapter_spread_offset"
down_revision: Union[str, None] = "0007_reading_finished"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_BATCH = 1000


def upgrade() -> None:
    # A plain ADD COLUMN (a string default): a batch copy of `chapter` on
    # SQLite would drop the table, and with it every page (ON DELETE CASCADE).
    with op.batch_alter_table("chapter", schema=None) as batch_op:
        batch_op.add_column(sa.Column("spread_offset", sa.Boolean(), nullable=False, server_default="0"))
    chapter = sa.table("chapter", sa.column("id", sa.Integer()), sa.column("spread_offset", sa.Boolean()))
    page = sa.table(
        "page",
        sa.column("chapter_id", sa.Integer()),
        sa.column("index", sa.Integer()),
        sa.column("width", sa.Integer()),
        sa.column("height", sa.Integer()),
    )
    bind = op.get_bind()
    # Only chapters with a spread can differ from the default: read just their pages.
    spreads = sa.select(page.c.chapter_id).where(page.c.width > page.c.height).distinct()
    rows = bind.execute(
        sa.select(page.c.chapter_id, page.c.width, page.c.height)
        .where(page.c.chapter_id.in_(spreads))
        .order_by(page.c.chapter_id, page.c.index)
    )
    offsets = [
        {"key": chapter_id, "offset": True}
        for chapter_id, sizes in groupby(rows, key=lambda row: row[0])
        if spread_offset((width, height) for _, width, height in sizes)
    ]
    update = chapter.update().where(chapter.c.id == sa.bindparam("key")).values(spread_offset=sa.bindparam("offset"))
    for start in range(0, len(offsets), _BATCH):
        bind.execute(update, offsets[start : start + _BATCH])


def downgrade() -> None:
    with op.batch_alter_table("chapter", schema=None) as batch_op:
        batch_op.drop_column("spread_offset")
