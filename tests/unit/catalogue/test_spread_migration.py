"""Migration 0008 works out the spread offset of chapters imported before
it, from the page sizes already stored, on real SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.core.db import make_engine, migrate
from manga_app.catalogue.models import Chapter, Page
from tests.migrations import database_before, insert_series

T0 = datetime(2026, 1, 1, tzinfo=UTC)


old_url = database_before("0007_reading_finished")  # a database at the schema before 0008, SQLite and PostgreSQL


def test_chapters_imported_before_spread_offsets_get_theirs_from_their_page_sizes(old_url):
    # Given a database at the schema before 0008, with two chapters imported
    # then: one with a spread at index 1 (after a single cover), one at index 2
    url, engine = old_url, make_engine(old_url)
    with engine.begin() as connection:
        insert_series(connection, T0)
        for chapter_id, layout in ((1, "NWNN"), (2, "NNWN")):
            connection.execute(
                sa.text(
                    "INSERT INTO chapter (id, series_id, number_hundredths, kind, title, slug, published_at, "
                    "views, page_count, source_path, source_size, source_mtime_ns, fingerprint, created_at) "
                    "VALUES (:id, 1, :n, 'chapter', '', '', :t, 0, 4, '/x', 0, 0, :fp, :t)"
                ),
                {"id": chapter_id, "n": chapter_id * 100, "t": T0, "fp": f"f{chapter_id}"},
            )
            for index, kind in enumerate(layout):
                width = 1600 if kind == "W" else 800
                connection.execute(
                    sa.text(
                        'INSERT INTO page (chapter_id, "index", media_key, ext, width, height, bytes) '
                        "VALUES (:c, :i, :k, 'png', :w, 1200, 1)"
                    ),
                    {"c": chapter_id, "i": index, "k": f"{chapter_id}{index}", "w": width},
                )
    # When it is migrated to the newest schema
    migrate(url)
    # Then the first stands its cover alone, the second pairs it
    with Session(engine) as session:
        offsets = {chapter.id: chapter.spread_offset for chapter in session.exec(select(Chapter))}
        pages = len(session.exec(select(Page)).all())
    engine.dispose()
    assert offsets == {1: True, 2: False}
    assert pages == 8  # and every page is still there
