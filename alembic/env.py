"""Alembic environment: SQLModel metadata of the catalogue tables.

The URL comes from `sqlalchemy.url` when set programmatically (db.migrate),
else REFLEX_DB_URL, else sqlite:///data/manga.db under the project root.
"""

from __future__ import annotations

from logging.config import fileConfig

import sqlalchemy as sa
from sqlmodel import SQLModel
from sqlmodel.sql.sqltypes import AutoString

import manga_app.catalogue.models  # noqa: F401 - registers the tables on the metadata
import manga_app.accounts.models  # noqa: F401 - registers the account tables
import manga_app.engagement.models  # noqa: F401 - registers the chapter view marks
import manga_app.jobs.models  # noqa: F401 - registers the job tables
from alembic import context
from manga_app.core.db import default_db_url, make_engine, normalise_url
from manga_app.catalogue.models import UTCDateTime

config = context.config
if config.config_file_name and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def render_item(type_, obj, autogen_context):
    """Render app-specific column types as plain SQLAlchemy ones.

    Migrations must not import application code: a later rename of a model
    helper would otherwise break every old migration.
    """
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if type_ == "type" and isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    return False


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    return normalise_url(url) if url else default_db_url()


def _configure(**kwargs) -> None:
    url = kwargs.pop("url", None) or _url()
    context.configure(
        target_metadata=target_metadata,
        render_item=render_item,
        render_as_batch=url.startswith("sqlite"),
        compare_type=True,
        **kwargs,
        **({"url": url} if "connection" not in kwargs else {}),
    )


def run_migrations_offline() -> None:
    _configure(url=_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = _url()
    engine = make_engine(url, poolclass=sa.pool.NullPool)
    with engine.connect() as connection:
        _configure(connection=connection, url=url)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
