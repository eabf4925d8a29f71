"""schedule: each library folder's scan interval and next scheduled scan

Revision ID: 0018_schedule_scan_interval
Revises: 0017_jobs_import_jobs
Create Date: 2026-11-28 15:20:00

Folders registered before have no schedule (0 hours: off).
"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

# Not the file's name: PostgreSQL's alembic_version.version_num is VARCHAR(32).
revision: str = "0018_schedule_scan_interval"
down_revision: Union[str, None] = "0017_jobs_import_jobs"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("library_folder", schema=None) as batch_op:
        batch_op.add_column(sa.Column("scan_every_hours", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("next_scan_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("library_folder", schema=None) as batch_op:
        batch_op.drop_column("next_scan_at")
        batch_op.drop_column("scan_every_hours")
