"""Engines and schema migrations for the catalogue database.

SQLite by default (a file under data/), PostgreSQL through a URL. The schema
is only ever created by Alembic (`migrate`), so tests, the CLI and production
all run the same migrations.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import sqlalchemy as sa
from alembic.config import Config
from sqlalchemy.engine import make_url

from alembic import command

__all__ = ["PROJECT_ROOT", "default_db_url", "make_engine", "migrate", "normalise_url"]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ALEMBIC_INI = PROJECT_ROOT / "alembic.ini"
DEFAULT_DB_URL = "sqlite:///data/manga.db"


def default_db_url() -> str:
    """REFLEX_DB_URL, else the SQLite file data/manga.db of the project (absolute path)."""
    url = os.environ.get("REFLEX_DB_URL") or DEFAULT_DB_URL
    return normalise_url(url)


def normalise_url(url: str) -> str:
    """Anchor relative SQLite paths at the project root; pick psycopg 3 for PostgreSQL.

    rxconfig.py runs from the project root, so a relative SQLite path means
    "relative to the project"; anchoring it keeps the CLI working from anywhere.
    A bare postgresql:// URL would ask for psycopg2, which is not installed.
    """
    parsed = make_url(url)
    if parsed.drivername == "postgresql":
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    if (
        parsed.get_backend_name() != "sqlite"
        or not parsed.database
        or parsed.database == ":memory:"
    ):
        return url
    path = Path(parsed.database)
    if not path.is_absolute():
        path = PROJECT_ROOT / path
    return parsed.set(database=str(path)).render_as_string(hide_password=False)


def make_engine(url: str | None = None, *, wait_for_database: float = 0, **kwargs) -> sa.Engine:
    """Create an engine; SQLite gets foreign keys on (for ON DELETE CASCADE) and its folder made.

    A server database's engine checks a pooled connection before handing it
    out (one broken by a restart is replaced) and, with `wait_for_database`
    seconds, a new connection that is refused (the server restarting) is
    tried again until then: the statement waits instead of failing. Nothing
    was sent yet when a connection is made, so waiting never repeats a write."""
    url = normalise_url(url) if url else default_db_url()
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        engine = sa.create_engine(url, pool_pre_ping=True, **kwargs)
        if wait_for_database > 0:
            sa.event.listen(engine, "do_connect", _connect_waiting(wait_for_database))
        return engine
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(url, connect_args={"check_same_thread": False}, **kwargs)
    sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _connect_waiting(seconds: float):
    def connect(dialect, _record, cargs, cparams):
        deadline = time.monotonic() + seconds
        while True:
            try:
                return dialect.connect(*cargs, **cparams)
            except dialect.loaded_dbapi.OperationalError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.25)

    return connect


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def migrate(url: str | None = None) -> None:
    """Bring the database at `url` to the newest schema (alembic upgrade head)."""
    url = normalise_url(url) if url else default_db_url()
    make_engine(url).dispose()  # creates the SQLite folder when needed
    config = Config(str(ALEMBIC_INI))
    config.set_main_option("script_location", str(PROJECT_ROOT / "alembic"))
    # Percent signs are ConfigParser interpolation; URLs may contain them.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    command.upgrade(config, "head")


_SHARED_ENGINE: sa.Engine | None = None


def database_wait_seconds() -> float:
    """How long the web layer waits for a database that refuses connections:
    DATABASE_WAIT_SECONDS, default 30 (0: not at all)."""
    return float(os.environ.get("DATABASE_WAIT_SECONDS") or 30)


def shared_engine() -> sa.Engine:
    """The process's engine for the web layer and state (created on first use).

    It waits `database_wait_seconds()` for a database that refuses
    connections, as while it restarts: a visitor's follow, like or reading
    position waits for it rather than being lost (tests/e2e/test_outage.py)."""
    global _SHARED_ENGINE
    if _SHARED_ENGINE is None:
        _SHARED_ENGINE = make_engine(wait_for_database=database_wait_seconds())
    return _SHARED_ENGINE
