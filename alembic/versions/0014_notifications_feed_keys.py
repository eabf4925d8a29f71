"""notifications and feed keys: one seen-mark per reader, one hashed Atom feed key per user

Revision ID: 0014_notifications_feed_keys
Revises: 0013_library_status
Create Date: 2026-11-28 08:15:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0014_notifications_feed_keys"
down_revision: Union[str, None] = "0013_library_status"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("user_account", schema=None) as batch_op:
        batch_op.add_column(sa.Column("notifications_seen_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "feed_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=128), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["uid"], ["user_account.uid"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid", name="uq_feed_key_uid"),
    )
    with op.batch_alter_table("feed_key", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_feed_key_key_hash"), ["key_hash"], unique=True)


def downgrade() -> None:
    op.drop_table("feed_key")
    with op.batch_alter_table("user_account", schema=None) as batch_op:
        batch_op.drop_column("notifications_seen_at")
