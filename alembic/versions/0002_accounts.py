"""accounts: users, follows, reading progress

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 04:00:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0002"
down_revision: Union[str, None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "user_account",
        sa.Column("uid", sa.String(length=128), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("avatar", sa.String(length=1000), nullable=False),
        sa.Column("is_anonymous", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("uid"),
    )
    op.create_table(
        "follow",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=128), nullable=False),
        sa.Column("series_slug", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["uid"], ["user_account.uid"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid", "series_slug", name="uq_follow_uid_series"),
    )
    with op.batch_alter_table("follow", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_follow_uid"), ["uid"], unique=False)
    op.create_table(
        "reading_progress",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=128), nullable=False),
        sa.Column("series_slug", sa.String(length=100), nullable=False),
        sa.Column("chapter_hundredths", sa.Integer(), nullable=False),
        sa.Column("page", sa.Integer(), nullable=False),
        sa.Column("offset", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["uid"], ["user_account.uid"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid", "series_slug", "chapter_hundredths", name="uq_progress_uid_chapter"),
    )
    with op.batch_alter_table("reading_progress", schema=None) as batch_op:
        batch_op.create_index("ix_progress_uid_updated", ["uid", "updated_at"], unique=False)


def downgrade() -> None:
    op.drop_table("reading_progress")
    op.drop_table("follow")
    op.drop_table("user_account")
