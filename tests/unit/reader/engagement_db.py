"""What the views and likes tests share: the site's database, migrated, on
real SQLite and PostgreSQL (one per test module), a fresh series with one
chapter per test, and visitor keys hashed as the site hashes them.

Import the fixtures into a test module: `from tests.unit.reader.engagement_db import db_url, engine, series_chapter`."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

import pytest
from sqlmodel import Session

from manga_app.catalogue.models import Chapter, Series
from manga_app.core.db import make_engine, migrate
from manga_app.engagement import view_counts
from tests.postgres import scratch_database

T0 = datetime(2026, 1, 1, tzinfo=UTC)
TODAY = date(2026, 3, 2)
SECRET = view_counts.hashing_secret("0f" * 32)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(request, tmp_path_factory):
    name = request.module.__name__.rpartition(".")[2].removeprefix("test_")
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp(name) / f'{name}.db'}"
        migrate(url)
        yield url
        return
    with scratch_database(f"{name}_test") as url:
        yield url


@pytest.fixture
def engine(db_url):
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


def make_series(session: Session, *slugs: str) -> dict[str, tuple[int, int]]:
    """New series with one chapter each (chapter 1): slug -> (series id, chapter id)."""
    made = {}
    for slug in slugs:
        series = Series(slug=slug, title=slug, title_key=slug, search_text=slug, created_at=T0, updated_at=T0)
        session.add(series)
        session.flush()
        chapter = Chapter(series_id=series.id, number_hundredths=100, title="", slug="", published_at=T0, page_count=3)
        session.add(chapter)
        session.flush()
        made[slug] = (series.id, chapter.id)
    session.commit()
    return made


@pytest.fixture
def series_chapter(engine) -> tuple[int, int]:
    """A fresh series with one chapter (chapter 1): (series id, chapter id)."""
    slug = f"s-{uuid.uuid4().hex[:8]}"
    with Session(engine) as session:
        return make_series(session, slug)[slug]


def browser(name: str) -> str:
    return view_counts.visitor_key(SECRET, "b", name)


def account(uid: str) -> str:
    return view_counts.visitor_key(SECRET, "u", uid)
