"""opds keys: one hashed key per user for the personal OPDS feeds

Revision ID: 0009_opds_keys
Revises: 0008_chapter_spread_offset
Create Date: 2026-11-26 06:00:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0009_opds_keys"
down_revision: Union[str, None] = "0008_chapter_spread_offset"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "opds_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=128), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["uid"], ["user_account.uid"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid", name="uq_opds_key_uid"),
    )
    with op.batch_alter_table("opds_key", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_opds_key_key_hash"), ["key_hash"], unique=True)


def downgrade() -> None:
    op.drop_table("opds_key")
