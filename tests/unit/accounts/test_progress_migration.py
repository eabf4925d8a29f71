"""Migration 0007 carries the old read marks over on real SQLite and
PostgreSQL: before it every chapter opened was read; after it a chapter is
read when its last page was reached, and the rest show where they were left."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlmodel import Session

from manga_app.accounts import progress
from manga_app.core.db import make_engine, migrate
from tests.migrations import database_before, insert_series
from tests.unit.accounts.accounts_db import T0


old_url = database_before("0006_chapter_kind")  # a database at the schema before 0007, SQLite and PostgreSQL


# (chapter hundredths, page, offset, minutes after T0) of one user's rows in
# series "s", whose chapters all have 8 pages.
OLD_ROWS = {
    100: (0, 0.0, 1),  # a mark merged from a browser (no position), left for a later chapter
    200: (7, 0.0, 2),  # left on its last page
    300: (4, 0.25, 3),  # left part-way
    400: (0, 0.0, 5),  # the series' newest: opened at page 1, nothing more
}


def test_old_marks_are_carried_over_by_where_each_chapter_was_left(old_url):
    engine = make_engine(old_url)
    with engine.begin() as connection:
        insert_series(connection, T0)
        for number in OLD_ROWS:
            connection.execute(sa.text(
                "INSERT INTO chapter (series_id, number_hundredths, kind, title, slug, published_at, views, page_count, "
                "source_path, source_size, source_mtime_ns, fingerprint, created_at) "
                "VALUES (1, :n, 'chapter', '', '', :t, 0, 8, '/x', 0, 0, :fp, :t)"), {"n": number, "t": T0, "fp": f"f{number}"})
        connection.execute(sa.text(
            "INSERT INTO user_account (uid, email, name, avatar, is_anonymous, created_at, updated_at) "
            "VALUES ('u', '', '', '', false, :t, :t)"), {"t": T0})
        for number, (page, offset, minute) in OLD_ROWS.items():
            connection.execute(sa.text(
                'INSERT INTO reading_progress (uid, series_slug, chapter_hundredths, page, "offset", updated_at) '
                "VALUES ('u', 's', :n, :p, :o, :at)"), {"n": number, "p": page, "o": offset, "at": T0 + timedelta(minutes=minute)})
    migrate(old_url)
    with Session(engine) as session:
        [row] = progress.history(session=session, uid="u")
    engine.dispose()
    assert row.chapter_hundredths == 400
    assert row.read == (100, 200)
    assert row.opened == ((300, 4), (400, 0))
