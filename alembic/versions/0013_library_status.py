"""library status: a reading-list status per followed series, and when it was last opened

Every existing follow is 読んでる (`reading`), as a new follow is. Chapters get
an index on (series, unit, publication) from which a library's unread
counts and newest units are read without touching the rows.

Revision ID: 0013_library_status
Revises: 0012_console_audit_locks
Create Date: 2026-11-28 08:00:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0013_library_status"
down_revision: Union[str, None] = "0012_console_audit_locks"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("follow", schema=None) as batch_op:
        batch_op.add_column(sa.Column("status", sa.String(length=16), nullable=False, server_default="reading"))
        batch_op.add_column(sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_chapter_series_unit_published", "chapter", ["series_id", "number_hundredths", "published_at"])


def downgrade() -> None:
    op.drop_index("ix_chapter_series_unit_published", table_name="chapter")
    with op.batch_alter_table("follow", schema=None) as batch_op:
        batch_op.drop_column("opened_at")
        batch_op.drop_column("status")
