"""Fixtures: a migrated SQLite file per test, a media store in tmp_path, a content key."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from sqlmodel import Session

from manga_app.core.db import make_engine, migrate
from manga_app.catalogue.media import MediaStore


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'catalogue.db'}"
    migrate(url)
    return url


@pytest.fixture
def engine(db_url: str):
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine):
    with Session(engine) as session:
        yield session


@pytest.fixture
def media(tmp_path: Path) -> MediaStore:
    return MediaStore(tmp_path / "media")


@pytest.fixture
def content_key() -> str:
    return secrets.token_hex(32)
