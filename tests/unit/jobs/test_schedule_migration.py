"""Migration 0018 gives each library folder a scan interval, off for the
folders registered before it, on real SQLite and PostgreSQL; it goes back
down to 0017 keeping the folders."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from manga_app.core.db import make_engine, migrate
from tests.migrations import database_before, downgrade_to

T0 = datetime(2026, 1, 1, tzinfo=UTC)


old_url = database_before("0017_jobs_import_jobs")  # a database at the schema before 0018, SQLite and PostgreSQL


def test_libraries_registered_before_have_no_schedule_and_the_migration_goes_back_down(old_url):
    engine = make_engine(old_url)
    with engine.begin() as connection:
        connection.execute(sa.text("INSERT INTO library_folder (id, path, added_by, created_at) "
                                   "VALUES (1, '/srv/comics', 'op@example.com', :t)"), {"t": T0})
    migrate(old_url)
    with engine.connect() as connection:
        row = connection.execute(sa.text("SELECT path, scan_every_hours, next_scan_at FROM library_folder")).one()
    assert tuple(row) == ("/srv/comics", 0, None)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE library_folder SET scan_every_hours = 24, next_scan_at = :t"), {"t": T0})
    downgrade_to(old_url, "0017_jobs_import_jobs")
    with engine.connect() as connection:
        columns = {column["name"] for column in sa.inspect(connection).get_columns("library_folder")}
        paths = connection.execute(sa.text("SELECT path FROM library_folder")).scalars().all()
    engine.dispose()
    assert "scan_every_hours" not in columns and "next_scan_at" not in columns
    assert paths == ["/srv/comics"]
