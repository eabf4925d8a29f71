"""Databases at an older schema, for tests of what a migration does to the
rows it finds: real SQLite, or a scratch PostgreSQL database (tests/postgres.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.config import Config

from alembic import command
from manga_app.core.db import ALEMBIC_INI, PROJECT_ROOT
from tests.postgres import scratch_database


def _config(url: str) -> Config:
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(PROJECT_ROOT / "alembic"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade_to(url: str, revision: str) -> None:
    command.upgrade(_config(url), revision)


def downgrade_to(url: str, revision: str) -> None:
    command.downgrade(_config(url), revision)


@contextlib.contextmanager
def database_at(kind: str, revision: str, folder: Path) -> Iterator[str]:
    """The URL of a new `kind` ("sqlite" or "postgresql") database migrated up to `revision` only."""
    if kind == "sqlite":
        url = f"sqlite:///{folder / 'old.db'}"
        upgrade_to(url, revision)
        yield url
        return
    with scratch_database("old_schema", migrated=False) as url:
        upgrade_to(url, revision)
        yield url


def database_before(revision: str):
    """A fixture: the URL of a database at `revision`, once on SQLite and once on PostgreSQL."""

    @pytest.fixture(params=["sqlite", "postgresql"])
    def old_url(request, tmp_path):
        with database_at(request.param, revision, tmp_path) as url:
            yield url

    return old_url


def insert_series(connection: sa.Connection, at: datetime) -> None:
    """Series 1, slug 's', as any schema from 0005 on stores it."""
    connection.execute(
        sa.text(
            "INSERT INTO series (id, slug, title, title_key, alt_titles, readings, search_text, "
            "authors, artists, tags, summary, status, direction, language, views, created_at, "
            "updated_at) VALUES (1, 's', 'S', 's', '[]', '[]', '', '[]', '[]', '[]', '', "
            "'ongoing', 'rtl', 'ja', 0, :t, :t)"
        ),
        {"t": at},
    )
