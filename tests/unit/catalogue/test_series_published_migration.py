"""Migration 0019: a series' newest publication (the library's 更新あり and
order) is read from one entry of an index on (series, published), on real
SQLite and PostgreSQL; its downgrade drops the index."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from manga_app.core.db import migrate
from tests.migrations import database_at, downgrade_to, insert_series

T0 = datetime(2026, 1, 1, tzinfo=UTC)

NEWEST = "SELECT max(published_at) FROM chapter WHERE series_id = 1"


@pytest.fixture(params=["sqlite", "postgresql"])
def old_url(request, tmp_path):
    """A database at the schema before 0019."""
    with database_at(request.param, "0018_schedule_scan_interval", tmp_path) as url:
        yield url


def _indexes(engine: sa.Engine) -> dict[str, list[str]]:
    return {index["name"]: index["column_names"] for index in sa.inspect(engine).get_indexes("chapter")}


def _plan(engine: sa.Engine) -> str:
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            return " ".join(str(row[-1]) for row in connection.execute(sa.text("EXPLAIN QUERY PLAN " + NEWEST)))
        connection.execute(sa.text("SET enable_seqscan = off"))  # an empty table: the plan a full one gets
        return " ".join(row[0] for row in connection.execute(sa.text("EXPLAIN " + NEWEST)))


def _units(engine: sa.Engine) -> None:
    """Series 1 with 40 chapters, and the statistics a database gathers on its own."""
    with engine.begin() as connection:
        insert_series(connection, T0)
        for n in range(1, 41):
            connection.execute(sa.text(
                "INSERT INTO chapter (id, series_id, number_hundredths, kind, title, slug, published_at, views, page_count,"
                " spread_offset, source_path, source_size, source_mtime_ns, fingerprint, created_at)"
                " VALUES (:n, 1, :key, 'chapter', '', '', :at, 0, 2, false, '', 0, 0, :fp, :at)"),
                {"n": n, "key": n * 100, "at": T0 + timedelta(days=n), "fp": f"f{n}"})
        connection.execute(sa.text("ANALYZE"))


def test_a_series_newest_publication_is_one_entry_of_the_series_published_index(old_url):
    engine = sa.create_engine(old_url)
    _units(engine)
    assert "ix_chapter_series_published" not in _plan(engine)
    migrate(old_url)
    assert _indexes(engine)["ix_chapter_series_published"] == ["series_id", "published_at"]
    with engine.begin() as connection:
        connection.execute(sa.text("ANALYZE"))
    assert "ix_chapter_series_published" in _plan(engine)
    downgrade_to(old_url, "0018_schedule_scan_interval")
    assert "ix_chapter_series_published" not in _indexes(engine)
    engine.dispose()
