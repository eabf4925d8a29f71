"""jobs: import jobs with their progress and per-file outcomes, library folders

Revision ID: 0017_jobs_import_jobs
Revises: 0016_follow_series_index
Create Date: 2026-11-28 11:40:00

"""
from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0017_jobs_import_jobs"
down_revision: Union[str, None] = "0016_follow_series_index"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "import_job",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("label", sa.String(length=300), nullable=False),
        sa.Column("library_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("requested_by", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("worker", sa.String(length=300), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("cancel_requested", sa.Boolean(), nullable=False),
        sa.Column("chapters_total", sa.Integer(), nullable=False),
        sa.Column("chapters_done", sa.Integer(), nullable=False),
        sa.Column("pages_done", sa.Integer(), nullable=False),
        sa.Column("share", sa.Float(), nullable=False),
        sa.Column("seconds_left", sa.Float(), nullable=True),
        sa.Column("current", sa.String(length=500), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_import_job_library_id", "import_job", ["library_id"])
    op.create_index("ix_import_job_status", "import_job", ["status"])
    op.create_table(
        "import_job_file",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["job_id"], ["import_job.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_import_job_file_job_id", "import_job_file", ["job_id"])
    op.create_table(
        "library_folder",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("added_by", sa.String(length=254), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("path"),
    )


def downgrade() -> None:
    op.drop_table("library_folder")
    op.drop_index("ix_import_job_file_job_id", table_name="import_job_file")
    op.drop_table("import_job_file")
    op.drop_index("ix_import_job_status", table_name="import_job")
    op.drop_index("ix_import_job_library_id", table_name="import_job")
    op.drop_table("import_job")
