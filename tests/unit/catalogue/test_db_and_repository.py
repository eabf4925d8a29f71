"""Migrations on a fresh SQLite file, UTC datetimes, and the repository queries the web layer calls."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlmodel import Session, SQLModel

from alembic import command
from manga_app.catalogue import repository
from manga_app.core.db import ALEMBIC_INI, PROJECT_ROOT, make_engine, migrate
from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import unit_key
from tests.migrations import insert_series

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def test_migrate_creates_every_table_on_a_fresh_sqlite_file_and_is_repeatable(tmp_path):
    url = f"sqlite:///{tmp_path / 'sub' / 'fresh.db'}"
    migrate(url)
    migrate(url)  # already at head: a no-op
    engine = make_engine(url)
    tables = set(sa.inspect(engine).get_table_names())
    engine.dispose()
    assert {"series", "chapter", "page", "genre", "series_genre", "alembic_version"} <= tables


CATALOGUE_TABLES = {"series", "chapter", "page", "genre", "series_genre"}


def test_the_migrated_catalogue_schema_matches_the_models(engine):
    def table_of(diff) -> str | None:
        """The table an autogenerate diff is about (diffs are tuples, or lists of tuples)."""
        operation = diff[0] if isinstance(diff, list) else diff
        for part in operation[1:]:
            if isinstance(part, sa.Table):
                return part.name
            if isinstance(part, (sa.Index, sa.Constraint)):
                return part.table.name
            if isinstance(part, str):  # ('add_column', schema (None), table name, column)
                return part
        return None

    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": False})
        diffs = compare_metadata(context, SQLModel.metadata)
    assert [d for d in diffs if table_of(d) in CATALOGUE_TABLES] == []


def test_datetimes_come_back_timezone_aware_utc_and_naive_ones_are_refused(session):
    tokyo = timezone(timedelta(hours=9))
    session.add(
        Series(
            slug="a", title="A", title_key="a", updated_at=datetime(2024, 5, 1, 21, 0, tzinfo=tokyo)
        )
    )
    session.commit()
    session.expire_all()
    loaded = repository.get_series(session=session, slug="a")
    assert loaded.updated_at == T0 and loaded.updated_at.utcoffset() == timedelta(0)
    session.add(Series(slug="b", title="B", title_key="b", updated_at=datetime(2024, 1, 1)))
    with pytest.raises(sa.exc.StatementError, match="naive datetime"):
        session.commit()


@pytest.fixture
def catalogue(session: Session) -> Session:
    for n, chapters in ((1, (100, 1050, 200)), (2, (100,)), (3, ())):
        series = Series(
            slug=f"s{n}", title=f"S{n}", title_key=f"s{n}", updated_at=T0 + timedelta(hours=n)
        )
        session.add(series)
        session.flush()
        for number in chapters:
            chapter = Chapter(series_id=series.id, number_hundredths=number, published_at=T0)
            session.add(chapter)
            session.flush()
            session.add_all(
                Page(
                    chapter_id=chapter.id,
                    index=i,
                    media_key=f"{i:064x}",
                    ext="png",
                    width=1,
                    height=1,
                    bytes=1,
                )
                for i in (1, 0)
            )
    session.commit()
    return session


def test_series_without_chapters_are_not_listed_and_pages_are_newest_first(catalogue):
    assert repository.count_series(session=catalogue) == 2
    assert [
        s.slug for s in repository.list_series_page(session=catalogue, page=1, page_size=1)
    ] == ["s2"]
    assert [
        s.slug for s in repository.list_series_page(session=catalogue, page=2, page_size=1)
    ] == ["s1"]
    assert repository.list_series_page(session=catalogue, page=3, page_size=1) == []
    assert repository.list_series_page(session=catalogue, page=0, page_size=1) == []
    batches = list(repository.iter_series_batches(session=catalogue, batch_size=1))
    assert [[s.slug for s in b] for b in batches] == [["s2"], ["s1"]]


@pytest.mark.parametrize("number", ["10.5", "10.50", 10.5])
def test_a_chapter_is_found_by_series_slug_and_decimal_number(catalogue, number):
    chapter = repository.get_chapter(session=catalogue, series_slug="s1", number=number)
    assert chapter is not None and chapter.number_hundredths == 1050
    assert [p.index for p in repository.pages_of(session=catalogue, chapter_id=chapter.id)] == [
        0,
        1,
    ]


@pytest.mark.parametrize(
    ("slug", "number"), [("s1", "3"), ("nope", "1"), ("s1", "x"), ("s1", "1.234")]
)
def test_unknown_or_malformed_chapters_are_none(catalogue, slug, number):
    assert repository.get_chapter(session=catalogue, series_slug=slug, number=number) is None


def test_chapters_come_in_reading_order_with_stats_per_series(catalogue):
    series = repository.get_series(session=catalogue, slug="s1")
    assert [
        c.number_hundredths for c in repository.chapters_of(session=catalogue, series_id=series.id)
    ] == [100, 200, 1050]
    assert repository.chapter_stats(session=catalogue, series_ids=[series.id]) == {
        series.id: (1050, 3)
    }


def test_views_are_counted_in_sql(catalogue):
    series = repository.get_series(session=catalogue, slug="s1")
    chapter = repository.chapters_of(session=catalogue, series_id=series.id)[0]
    repository.add_view(session=catalogue, series_id=series.id, chapter_id=chapter.id)
    repository.add_view(session=catalogue, series_id=series.id)
    catalogue.expire_all()
    assert repository.get_series(session=catalogue, slug="s1").views == 2
    assert repository.chapters_of(session=catalogue, series_id=series.id)[0].views == 1


def test_a_chapter_number_is_unique_within_its_series(catalogue):
    series = repository.get_series(session=catalogue, slug="s2")
    catalogue.add(Chapter(series_id=series.id, number_hundredths=100, published_at=T0))
    with pytest.raises(sa.exc.IntegrityError):
        catalogue.commit()


def _database_at(tmp_path, revision: str):
    """A SQLite database migrated up to `revision` only, and its engine."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(PROJECT_ROOT / "alembic"))
    config.set_main_option("sqlalchemy.url", url)
    config.attributes["configure_logger"] = False
    command.upgrade(config, revision)
    return url, make_engine(url)


def test_the_old_fingerprints_are_split_into_content_hash_size_and_mtime(tmp_path):
    # Given a database at the schema before 0005, with a chapter imported then
    url, engine = _database_at(tmp_path, "0004_history_removals")
    digest = "ab" * 32
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO series (id, slug, title, title_key, alt_titles, readings, search_text, "
                "authors, artists, summary, status, direction, language, views, created_at, updated_at) "
                "VALUES (1, 's', 'S', 's', '[]', '[]', '', '[]', '[]', '', 'ongoing', 'rtl', 'ja', 0, "
                ":t, :t)"
            ),
            {"t": T0},
        )
        connection.execute(
            sa.text(
                "INSERT INTO chapter (id, series_id, number_hundredths, title, slug, published_at, "
                "views, page_count, source_path, fingerprint, created_at) "
                "VALUES (1, 1, 100, '', '', :t, 3, 0, '/x.cbz', :fp, :t)"
            ),
            {"t": T0, "fp": f"1234:1700000000123456789:{digest}"},
        )
    # When it is migrated to the newest schema
    migrate(url)
    # Then the chapter keeps its views and has its content hash, size and mtime apart
    with Session(engine) as session:
        chapter = session.get(Chapter, 1)
        series = session.get(Series, 1)
    engine.dispose()
    assert (chapter.fingerprint, chapter.source_size, chapter.source_mtime_ns) == (
        digest,
        1234,
        1_700_000_000_123_456_789,
    )
    assert chapter.views == 3 and series.tags == []


def test_chapters_imported_before_units_had_a_kind_stay_chapters(tmp_path):
    # Given a database at the schema before 0006, with a chapter imported then
    url, engine = _database_at(tmp_path, "0005_catalogue_tags_sources")
    with engine.begin() as connection:
        insert_series(connection, T0)
        connection.execute(
            sa.text(
                "INSERT INTO chapter (id, series_id, number_hundredths, title, slug, published_at, "
                "views, page_count, source_path, fingerprint, created_at) "
                "VALUES (1, 1, 300, 'x', '', :t, 7, 0, '/x.cbz', 'ab', :t)"
            ),
            {"t": T0},
        )
    # When it is migrated to the newest schema
    migrate(url)
    # Then the chapter is still chapter 3, a chapter, with its views
    with Session(engine) as session:
        chapter = session.get(Chapter, 1)
        found = (chapter.kind, chapter.number_hundredths, chapter.views)
        # and a volume 3 can join it without colliding
        session.add(Chapter(series_id=1, number_hundredths=unit_key("volume", 300), kind="volume", published_at=T0))
        session.commit()
    engine.dispose()
    assert found == ("chapter", 300, 7)

