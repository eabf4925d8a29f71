"""catalogue: series tags apart from genres; chapter source size and mtime

Revision ID: 0005_catalogue_tags_sources
Revises: 0004_history_removals
Create Date: 2026-11-25 09:00:00

Chapter.fingerprint was "size:mtime_ns:sha256"; it becomes the sha256 alone,
with the size and mtime in their own columns (so a touched but unchanged file
is recognised by its content). Genres that earlier imports made from
ComicInfo Tags cannot be told apart here; re-importing the changed chapters
(or a fresh import) separates them.
"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0005_catalogue_tags_sources"
down_revision: Union[str, None] = "0004_history_removals"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("series", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tags", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("chapter", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("source_size", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("source_mtime_ns", sa.BigInteger(), nullable=False, server_default="0")
        )
        batch_op.create_index(batch_op.f("ix_chapter_source_path"), ["source_path"], unique=False)
    chapter = sa.table(
        "chapter",
        sa.column("id", sa.Integer()),
        sa.column("fingerprint", sa.String()),
        sa.column("source_size", sa.BigInteger()),
        sa.column("source_mtime_ns", sa.BigInteger()),
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(chapter.c.id, chapter.c.fingerprint).where(chapter.c.fingerprint.like("%:%:%"))
    ).all()
    updates = []
    for chapter_id, fingerprint in rows:
        size, mtime, digest = fingerprint.split(":", 2)
        if size.isdigit() and mtime.isdigit():
            updates.append(
                {"key": chapter_id, "fp": digest, "size": int(size), "mtime": int(mtime)}
            )
    if updates:
        bind.execute(
            chapter.update()
            .where(chapter.c.id == sa.bindparam("key"))
            .values(
                fingerprint=sa.bindparam("fp"),
                source_size=sa.bindparam("size"),
                source_mtime_ns=sa.bindparam("mtime"),
            ),
            updates,
        )


def downgrade() -> None:
    chapter = sa.table(
        "chapter",
        sa.column("fingerprint", sa.String()),
        sa.column("source_size", sa.BigInteger()),
        sa.column("source_mtime_ns", sa.BigInteger()),
    )
    op.get_bind().execute(
        chapter.update().values(
            fingerprint=sa.cast(chapter.c.source_size, sa.String())
            + ":"
            + sa.cast(chapter.c.source_mtime_ns, sa.String())
            + ":"
            + chapter.c.fingerprint
        )
    )
    with op.batch_alter_table("chapter", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chapter_source_path"))
        batch_op.drop_column("source_mtime_ns")
        batch_op.drop_column("source_size")
    with op.batch_alter_table("series", schema=None) as batch_op:
        batch_op.drop_column("tags")
