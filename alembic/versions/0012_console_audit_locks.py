"""console: the operator's audit log, metadata locks and the series' age rating

Revision ID: 0012_console_audit_locks
Revises: 0011_series_view_days
Create Date: 2026-11-28 08:10:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0012_console_audit_locks"
down_revision: Union[str, None] = "0011_series_view_days"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # A plain ADD COLUMN (no batch rebuild): the series table keeps its
    # change-log triggers (migration 0010).
    op.add_column("series", sa.Column("age_rating", sa.String(length=16), nullable=False, server_default=""))
    op.create_table(
        "metadata_lock",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("chapter_id", sa.Integer(), nullable=True),
        sa.Column("field", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["series_id"], ["series.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["chapter_id"], ["chapter.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("series_id", "chapter_id", "field", name="uq_metadata_lock"),
    )
    op.create_index("ix_metadata_lock_series_id", "metadata_lock", ["series_id"])
    op.create_index("ix_metadata_lock_chapter_id", "metadata_lock", ["chapter_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_uid", sa.String(length=128), nullable=False),
        sa.Column("actor_email", sa.String(length=254), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("target", sa.String(length=300), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])


def downgrade() -> None:
    op.drop_index("ix_audit_log_at", table_name="audit_log")
    op.drop_table("audit_log")
    op.drop_index("ix_metadata_lock_chapter_id", table_name="metadata_lock")
    op.drop_index("ix_metadata_lock_series_id", table_name="metadata_lock")
    op.drop_table("metadata_lock")
    # Not a batch rebuild either (it would drop the triggers): SQLite 3.35+ and
    # PostgreSQL both drop a column in place.
    op.execute("ALTER TABLE series DROP COLUMN age_rating")
