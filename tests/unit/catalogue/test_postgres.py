"""The same migrations, import and publish against a real PostgreSQL server.

Creates and drops its own scratch database. An unreachable server FAILS this
module (a skipped production database test hides real breakage) unless
MANGA_SKIP_POSTGRES=1 is set.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import repository
from manga_app.core.db import make_engine, migrate
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.publisher import publish_catalogue
from manga_app.core.crypto import decrypt_text

from tests.postgres import scratch_database

from .builders import comicinfo_xml, distinct_pages, write_cbz
from .checks import assert_no_orphan_media, chapter_rows, media_keys_in_db, media_keys_on_disk



@pytest.fixture(scope="module")
def pg_url():
    with scratch_database("catalogue_test", migrated=False) as url:
        yield url


@pytest.fixture(scope="module")
def pg_engine(pg_url):
    migrate(pg_url)
    engine = make_engine(pg_url)
    yield engine
    engine.dispose()


def test_alembic_upgrade_head_creates_the_schema_with_timezone_columns(pg_engine):
    inspector = sa.inspect(pg_engine)
    assert {"series", "chapter", "page", "genre", "series_genre"} <= set(
        inspector.get_table_names()
    )
    columns = {c["name"]: c["type"] for c in inspector.get_columns("series")}
    assert isinstance(columns["updated_at"], sa.DateTime) and columns["updated_at"].timezone


def test_import_and_publish_round_trip_on_postgresql(tmp_path, pg_engine, content_key):
    # Given chapters 1 and 10.5 of a series, one dated by ComicInfo
    src = tmp_path / "src" / "ワンピース"
    write_cbz(
        src / "ワンピース 1.cbz",
        {f"{i}.png": d for i, d in enumerate(distinct_pages(2))},
        comicinfo=comicinfo_xml(Genre="冒険", Year="1997", Month="7", Day="22"),
    )
    write_cbz(src / "ワンピース 10.5.cbz", {"1.png": distinct_pages(1, seed=3)[0]})
    media = MediaStore(tmp_path / "media")
    # When imported twice and published
    assert import_source(tmp_path / "src", engine=pg_engine, media=media).ok
    assert len(import_source(tmp_path / "src", engine=pg_engine, media=media).skipped) == 2
    with Session(pg_engine) as session:
        result = publish_catalogue(
            session=session,
            out_dir=tmp_path / "out",
            content_key=content_key,
            media_base_url="/media",
        )
        series = repository.get_series(session=session, slug="wanpiisu")
        chapter = repository.get_chapter(session=session, series_slug="wanpiisu", number="10.5")
        dated = session.exec(select(Chapter).where(Chapter.number_hundredths == 100)).one()
    # Then rows, aware datetimes, the decimal chapter and the published files are right
    assert chapter_rows(pg_engine) == [("ワンピース", 100, 2), ("ワンピース", 1050, 1)]
    assert series is not None and chapter is not None
    assert dated.published_at == datetime(1997, 7, 22, tzinfo=UTC)
    assert series.created_at.tzinfo is not None
    assert result.series == 1 and result.manifests == 2
    [item] = json.loads((tmp_path / "out" / "mangas_1.json").read_text())["list"]
    assert item["latest_chapter"] == 10.5 and item["genres"] == ["冒険"]
    manifest = json.loads((tmp_path / "out" / "manifests" / "wanpiisu" / "10.5.json").read_text())
    assert len(json.loads(decrypt_text(manifest["data"], content_key, manifest["iv"]))) == 1
    assert_no_orphan_media(pg_engine, media.root)
    with Session(pg_engine) as session:
        assert session.exec(select(sa.func.count()).select_from(Series)).one() == 1


def test_volumes_renames_and_deletions_on_postgresql(tmp_path, pg_engine, content_key):
    # Given volume 3 and chapters 3 and 21 of a series
    src = tmp_path / "src" / "[作者] 探偵 (完)"
    for seed, name in enumerate(("第3巻", "第3話", "第21話"), start=11):
        write_cbz(src / f"探偵 {name}.cbz", {"1.png": distinct_pages(1, seed=seed)[0]})
    media = MediaStore(tmp_path / "media")
    assert import_source(tmp_path / "src", engine=pg_engine, media=media).ok
    # When 第21話 is renamed 第22話, 第3話 deleted, and the folder imported again
    (src / "探偵 第21話.cbz").rename(src / "探偵 第22話.cbz")
    (src / "探偵 第3話.cbz").unlink()
    report = import_source(tmp_path / "src", engine=pg_engine, media=media)
    assert report.ok and len(report.removed) == 1
    # Then volume 3 and chapter 22 remain; the latest chapter is 22, not the volume
    with Session(pg_engine) as session:
        series = repository.get_series(session=session, slug="tantei")
        units = sorted((c.kind, c.number_hundredths) for c in repository.chapters_of(session=session, series_id=series.id))
        stats = repository.chapter_stats(session=session, series_ids=[series.id])
        assert (series.authors, series.status) == (["作者"], "completed")
    assert units == [("chapter", 2200), ("volume", 100_000_300)]
    assert stats[series.id] == (2200, 2)
    # and the deleted chapter's media went (this module's database also holds another test's rows)
    assert media_keys_on_disk(media.root) <= media_keys_in_db(pg_engine)
