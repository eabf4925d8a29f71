"""A consistent copy of the database, taken while the site writes to it, and
its way back: SQLite through its online backup API, PostgreSQL through
pg_dump/pg_restore at one exported snapshot (so what is checked against the
media store is exactly what was dumped).

No framework imports but SQLAlchemy's URL parsing and engines."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import make_url

SQLITE_FILE = "database.sqlite3"
POSTGRES_FILE = "database.pgdump"
# What a snapshot is checked against: every original a page or cover names.
_ORIGINALS = "SELECT media_key, ext FROM page UNION SELECT cover_key, NULL FROM series WHERE cover_key IS NOT NULL"


class BackupError(Exception):
    """Something the operator can act on; the message says what (English)."""


def kind(url: str) -> str:
    backend = make_url(url).get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupError(f"backups know SQLite and PostgreSQL, not {backend}")
    return backend


def libpq_url(url: str) -> str:
    """The URL as pg_dump and psql take it (no SQLAlchemy driver name)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database cannot be backed up or restored")
    return Path(database)


def snapshot(url: str, into: Path) -> tuple[str, set[tuple[str, str | None]]]:
    """Write the database into the folder `into`; returns the file's name and
    the originals (media key, extension or None for a cover) the copy names."""
    if kind(url) == "sqlite":
        source = sqlite_path(url)
        if not source.is_file():
            raise BackupError(f"no database at {source}: nothing to back up")
        target = into / SQLITE_FILE
        with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as live, closing(sqlite3.connect(target)) as copy:
            live.backup(copy)
            return SQLITE_FILE, set(copy.execute(_ORIGINALS).fetchall())
    with _exported_snapshot(url) as (snapshot_id, originals):
        _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--snapshot={snapshot_id}",
              f"--file={into / POSTGRES_FILE}", libpq_url(url)], "pg_dump")
        return POSTGRES_FILE, originals


@contextmanager
def _exported_snapshot(url: str) -> Iterator[tuple[str, set[tuple[str, str | None]]]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect().execution_options(isolation_level="REPEATABLE READ") as connection, connection.begin():
            snapshot_id = connection.execute(sa.text("SELECT pg_export_snapshot()")).scalar_one()
            originals = {tuple(row) for row in connection.execute(sa.text(_ORIGINALS))}
            yield snapshot_id, originals
    except sa.exc.SQLAlchemyError as exc:
        raise BackupError(f"cannot read the database: {str(exc).splitlines()[0]}") from None
    finally:
        engine.dispose()


def is_empty(url: str) -> bool:
    """True when the database has no tables of ours (a fresh one to restore into)."""
    if kind(url) == "sqlite":
        path = sqlite_path(url)
        if not path.exists():
            return True
    engine = sa.create_engine(url)
    try:
        return not sa.inspect(engine).get_table_names()
    except sa.exc.SQLAlchemyError as exc:
        raise BackupError(f"cannot open the database to restore into: {str(exc).splitlines()[0]}") from None
    finally:
        engine.dispose()


def load(url: str, backup: Path, name: str) -> None:
    """Put the copy `backup/name` in place as the database at `url` (which is empty)."""
    if kind(url) == "sqlite":
        if name != SQLITE_FILE:
            raise BackupError(f"this backup holds a PostgreSQL dump ({name}); restore it into PostgreSQL")
        target = sqlite_path(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".restoring")
        partial.unlink(missing_ok=True)
        with closing(sqlite3.connect(backup / name)) as copy, closing(sqlite3.connect(partial)) as restored:
            copy.backup(restored)
        partial.replace(target)  # whole, or not there at all
        return
    if name != POSTGRES_FILE:
        raise BackupError(f"this backup holds a SQLite file ({name}); restore it into SQLite")
    # One transaction: a failed restore leaves the database as empty as it was.
    _run(["pg_restore", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
          f"--dbname={libpq_url(url)}", str(backup / name)], "pg_restore")


def clear(url: str) -> None:
    """Undo a restore that failed after `load`: the database is as empty as it was."""
    if kind(url) == "sqlite":
        sqlite_path(url).unlink(missing_ok=True)
        return
    engine = sa.create_engine(url)
    try:
        tables = sa.MetaData()
        tables.reflect(engine)
        tables.drop_all(engine)
    finally:
        engine.dispose()


def _run(command: list[str], tool: str) -> None:
    if shutil.which(command[0]) is None:
        raise BackupError(f"{tool} is not installed (Debian: postgresql-client)")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        message = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise BackupError(f"{tool} failed: {message}")
