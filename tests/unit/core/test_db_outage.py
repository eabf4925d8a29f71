"""The web layer's engine waits for a PostgreSQL that restarts, instead of
failing the visitor's write: against a cluster of the test's own (initdb on
a free port), stopped and started again while a write waits."""

from __future__ import annotations

import threading
import time
import pytest
import sqlalchemy as sa

from manga_app.core.db import make_engine
from tests.engines import OwnPostgres, free_port


@pytest.fixture
def postgres():
    server = OwnPostgres(free_port())
    server.init()
    yield server
    server.remove()


def _write_while_down(engine: sa.Engine, server: OwnPostgres, down_for: float) -> list:
    with engine.begin() as connection:  # a pooled connection from before the restart
        connection.execute(sa.text("create table if not exists mark (n int)"))
    server.stop()
    outcome: list = []

    def write() -> None:
        try:
            with engine.begin() as connection:
                connection.execute(sa.text("insert into mark values (1)"))
            outcome.append("written")
        except Exception as error:  # the test reports what the write met
            outcome.append(error)

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(down_for)
    server.start()
    writer.join(timeout=60)
    return outcome


def test_a_write_made_while_postgresql_restarts_lands_once_it_is_back(postgres):
    engine = make_engine(postgres.url, wait_for_database=30)
    assert _write_while_down(engine, postgres, 3) == ["written"]
    with engine.connect() as connection:
        assert connection.execute(sa.text("select count(*) from mark")).scalar_one() == 1
    engine.dispose()


def test_the_wait_is_bounded_and_the_cli_does_not_wait(postgres):
    waiting = make_engine(postgres.url, wait_for_database=1)
    [error] = _write_while_down(waiting, postgres, 3)
    assert isinstance(error, sa.exc.OperationalError)
    waiting.dispose()
    postgres.stop()
    started = time.monotonic()
    with pytest.raises(sa.exc.OperationalError):
        make_engine(postgres.url).connect()  # the operator's CLI hears at once
    assert time.monotonic() - started < 5
