"""catalogue: a readable unit is a volume or a chapter

Revision ID: 0006_chapter_kind
Revises: 0005_catalogue_tags_sources
Create Date: 2026-11-25 12:30:00

Chapter.kind says whether the unit is a volume (巻) or a chapter (話). A
volume's number_hundredths is its key, VOLUME_KEY plus its number (see
manga_app.core.routes.VOLUME_KEY), so the unique (series, number) index keeps
volume 3 and chapter 3 apart. Every existing row was imported as a chapter
and stays one; re-importing a renamed file (or the file of a volume that an
earlier importer flattened into a chapter) turns it into what its name says.
"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0006_chapter_kind"
down_revision: Union[str, None] = "0005_catalogue_tags_sources"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("chapter", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("kind", sa.String(length=16), nullable=False, server_default="chapter")
        )


def downgrade() -> None:
    with op.batch_alter_table("chapter", schema=None) as batch_op:
        batch_op.drop_column("kind")
