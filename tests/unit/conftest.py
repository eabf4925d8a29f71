"""Fixtures every unit test may use: the Auth emulator, a migrated SQLite file
per test, a media store, a content key, clean settings and a small served
catalogue. Lower levels add their own (accounts: Firebase configurations and
databases on SQLite and PostgreSQL; opds: a served demo)."""

from __future__ import annotations

import contextlib
import secrets
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import Session

from manga_app.accounts import emulator
from manga_app.core import db
from manga_app.core.db import make_engine, migrate
from manga_app.catalogue.publisher import publish_catalogue
from manga_app.read_models import held
from tests.unit.accounts.accounts_db import add_series
from tests.unit.accounts.visitors import CATALOGUE, PAGES
from tests.unit.served import serving
from manga_app.catalogue.media import MediaStore
from manga_app.core.config import Settings, get_settings


_RUN_EMULATOR = contextlib.ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (make test), one Auth emulator for the whole run,
    started by the controller when none answers: each worker's auth_emulator
    then finds it running. Else two workers would both start one on the same
    port, and the first to finish would stop it under the other."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        _RUN_EMULATOR.enter_context(emulator.running_emulator(log_path=Path(tempfile.mkdtemp(prefix="emulator-")) / "emulator.log"))


def pytest_unconfigure(config: pytest.Config) -> None:
    _RUN_EMULATOR.close()


@pytest.fixture(scope="session")
def auth_emulator(tmp_path_factory) -> str:
    """The real Firebase Auth emulator for the whole session (the machine's
    own when one answers, else one started here)."""
    with emulator.running_emulator(log_path=tmp_path_factory.mktemp("emulator") / "emulator.log") as host:
        yield host


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


# Every variable Settings reads, so no test sees the developer's environment.
SETTINGS_VARIABLES = [name.upper() for name in Settings.model_fields]


@pytest.fixture
def clean_settings(monkeypatch, tmp_path: Path) -> Path:
    """No setting from the developer's environment or `.env`: every variable
    Settings reads is unset, the working directory is an empty tmp_path, and
    get_settings() reads afresh, now and after the test."""
    for name in SETTINGS_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()
    yield tmp_path
    get_settings.cache_clear()


@pytest.fixture
def configure(monkeypatch):
    """`configure(DATA_DIR=...)`: these settings for this test (environment
    variables, read afresh by get_settings(); forgotten after the test)."""

    def set_values(**values: object) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, str(value))
        get_settings.cache_clear()

    yield set_values
    get_settings.cache_clear()


@pytest.fixture
def catalogue(tmp_path: Path, monkeypatch) -> Iterator[str]:
    """A small real catalogue (CATALOGUE in accounts/visitors.py), published
    and held as the server holds it; the account tables beside it.
    Yields the database URL."""
    url = f"sqlite:///{tmp_path / 'site.db'}"
    migrate(url)
    engine = make_engine(url)
    with Session(engine) as session:
        for slug, chapters in CATALOGUE.items():
            add_series(session, slug, chapters, pages=PAGES)
        session.commit()
        publish_catalogue(session=session, out_dir=tmp_path / "published", content_key=secrets.token_hex(32),
                          media_base_url="/media")
    with serving(tmp_path / "published") as base_url:
        monkeypatch.setattr(db, "_SHARED_ENGINE", engine)
        monkeypatch.setattr(held, "_HELD", held.HeldCatalogue(base_url, refresh_seconds=3600))
        try:
            yield url
        finally:
            engine.dispose()
