"""reading progress: a chapter is read when its last page was reached

Revision ID: 0007_reading_finished
Revises: 0006_chapter_kind
Create Date: 2026-11-26 05:40:00

Before this, every progress row was a read mark: opening a chapter made it
既読. ReadingProgress.finished now says the chapter's last page (or its end
card) was reached; a row without it is a chapter left part-way at `page`.

Existing rows are carried over as follows:
- a row whose page is the chapter's last (page + 1 >= the catalogue's page
  count) is finished: its position says so;
- a row at page 0, offset 0 that is not its series' newest row is finished:
  such rows are mostly read marks merged from a browser's history, which
  kept no position for chapters other than the last one, and were left for
  a later chapter (the old reader's way on was the end card). Dropping them
  would take every old mark away; the old site showed them as read anyway;
- every other row is a chapter left part-way at its page.
"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0007_reading_finished"
down_revision: Union[str, None] = "0006_chapter_kind"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

_CARRY_OVER = sa.text(
    """
    UPDATE reading_progress SET finished = :yes
    WHERE page + 1 >= (
            SELECT chapter.page_count FROM chapter JOIN series ON series.id = chapter.series_id
            WHERE series.slug = reading_progress.series_slug
              AND chapter.number_hundredths = reading_progress.chapter_hundredths
          )
       OR (page = 0 AND "offset" = 0 AND EXISTS (
            SELECT 1 FROM reading_progress AS newer
            WHERE newer.uid = reading_progress.uid
              AND newer.series_slug = reading_progress.series_slug
              AND newer.updated_at > reading_progress.updated_at
          ))
    """
)


def upgrade() -> None:
    with op.batch_alter_table("reading_progress", schema=None) as batch_op:
        batch_op.add_column(sa.Column("finished", sa.Boolean(), nullable=False, server_default="0"))
    op.get_bind().execute(_CARRY_OVER, {"yes": True})


def downgrade() -> None:
    with op.batch_alter_table("reading_progress", schema=None) as batch_op:
        batch_op.drop_column("finished")
