"""Scratch PostgreSQL databases on the machine's real server, for tests:
one fresh database per use, dropped afterwards.

An unreachable server fails the test (a skipped production-database test
hides real breakage) unless MANGA_SKIP_POSTGRES=1 is set."""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
import sqlalchemy as sa

from manga_app.core.db import migrate

ADMIN_URL = os.environ.get("MANGA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


@contextlib.contextmanager
def scratch_database(prefix: str, *, migrated: bool = True) -> Iterator[str]:
    """The URL of a new database named `<prefix>_<random>`, Alembic-migrated
    unless `migrated` is False."""
    if os.environ.get("MANGA_SKIP_POSTGRES") == "1":
        pytest.skip("MANGA_SKIP_POSTGRES=1")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    try:
        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(f"PostgreSQL unreachable at {ADMIN_URL} ({exc}); set MANGA_SKIP_POSTGRES=1 to skip")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = sa.engine.make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)
            if migrated:
                migrate(url)
            yield url
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
