"""catalogue changes: the database logs which series changed, for incremental publishing

Triggers add one row per changed series (at most one waiting row per series)
whenever a row the publisher reads is inserted, updated or deleted: series,
their genre links, genre names, chapters (not their view counts) and pages.
A deleted or renamed series also leaves its old slug, so the publisher can
remove what it published under it. `publish_state` holds the token of the
publish that last consumed the log (see catalogue/changes.py).

Revision ID: 0010_catalogue_changes
Revises: 0009_opds_keys
Create Date: 2026-11-26 08:40:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0010_catalogue_changes"
down_revision: Union[str, None] = "0009_opds_keys"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# (trigger suffix, event, table, SQL selecting the series_id and gone_slug to log)
_LOGGED = (
    ("series_insert", "INSERT", "series", "SELECT NEW.id AS series_id, NULL AS gone_slug"),
    ("series_update", "UPDATE", "series",
     "SELECT NEW.id AS series_id, CASE WHEN OLD.slug <> NEW.slug THEN OLD.slug END AS gone_slug"),
    ("series_delete", "DELETE", "series", "SELECT OLD.id AS series_id, OLD.slug AS gone_slug"),
    ("series_genre_insert", "INSERT", "series_genre", "SELECT NEW.series_id AS series_id, NULL AS gone_slug"),
    ("series_genre_delete", "DELETE", "series_genre", "SELECT OLD.series_id AS series_id, NULL AS gone_slug"),
    ("genre_update", "UPDATE OF name", "genre",
     "SELECT series_id, NULL AS gone_slug FROM series_genre WHERE genre_id = NEW.id"),
    ("chapter_insert", "INSERT", "chapter", "SELECT NEW.series_id AS series_id, NULL AS gone_slug"),
    # Not on views: counting a view changes nothing the publisher reads.
    ("chapter_update", "UPDATE OF series_id, number_hundredths, kind, spread_offset", "chapter",
     "SELECT NEW.series_id AS series_id, NULL AS gone_slug UNION SELECT OLD.series_id, NULL"),
    ("chapter_delete", "DELETE", "chapter", "SELECT OLD.series_id AS series_id, NULL AS gone_slug"),
    ("page_insert", "INSERT", "page",
     "SELECT series_id, NULL AS gone_slug FROM chapter WHERE id = NEW.chapter_id"),
    ("page_update", "UPDATE", "page",
     "SELECT series_id, NULL AS gone_slug FROM chapter WHERE id IN (NEW.chapter_id, OLD.chapter_id)"),
    ("page_delete", "DELETE", "page",
     "SELECT series_id, NULL AS gone_slug FROM chapter WHERE id = OLD.chapter_id"),
)

# A series already waiting is not logged again (the log stays as small as
# the catalogue), unless the row carries a slug to remove.
_INSERT = (
    "INSERT INTO catalogue_change (series_id, gone_slug) "
    "SELECT changed.series_id, changed.gone_slug FROM ({select}) AS changed "
    "WHERE changed.gone_slug IS NOT NULL OR NOT EXISTS "
    "(SELECT 1 FROM catalogue_change waiting WHERE waiting.series_id = changed.series_id "
    "AND waiting.gone_slug IS NULL)"
)


def upgrade() -> None:
    op.create_table(
        "catalogue_change",
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("series_id", sa.Integer(), nullable=False),
        sa.Column("gone_slug", sa.String(length=100), nullable=True),
        sa.PrimaryKeyConstraint("seq"),
    )
    op.create_index("ix_catalogue_change_series_id", "catalogue_change", ["series_id"])
    op.create_table(
        "publish_state",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    postgres = op.get_bind().dialect.name == "postgresql"
    for suffix, event, table, select in _LOGGED:
        body = _INSERT.format(select=select)
        if not postgres:
            op.execute(f"CREATE TRIGGER log_{suffix} AFTER {event} ON {table} FOR EACH ROW BEGIN {body}; END")
        else:
            op.execute(f"CREATE FUNCTION log_{suffix}() RETURNS trigger LANGUAGE plpgsql AS $$ "
                       f"BEGIN {body}; RETURN NULL; END $$")
            op.execute(f"CREATE TRIGGER log_{suffix} AFTER {event} ON {table} "
                       f"FOR EACH ROW EXECUTE FUNCTION log_{suffix}()")


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for suffix, _event, table, _select in _LOGGED:
        op.execute(f"DROP TRIGGER IF EXISTS log_{suffix}" + (f" ON {table}" if postgres else ""))
        if postgres:
            op.execute(f"DROP FUNCTION IF EXISTS log_{suffix}()")
    op.drop_table("publish_state")
    op.drop_index("ix_catalogue_change_series_id", table_name="catalogue_change")
    op.drop_table("catalogue_change")
