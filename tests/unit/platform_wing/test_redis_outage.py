"""platform/redis_outage.py: Reflex's Redis client waits out a Redis that
stops and comes back (against a redis-server of the test's own)."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from reflex.utils import prerequisites
from reflex_base.config import get_config

from manga_app import platform
from tests.engines import OwnRedis, free_port


@pytest.fixture
def redis_server(tmp_path: Path, monkeypatch):
    server = OwnRedis(free_port(), tmp_path / "redis")
    server.start()
    monkeypatch.setattr(get_config(), "redis_url", server.url)
    # Reflex's own get_redis for this test, whatever the process installed before.
    monkeypatch.setattr(prerequisites, "get_redis", getattr(prerequisites.get_redis, "__wrapped__", prerequisites.get_redis))
    yield server
    server.stop()


async def _set_while_down(server: OwnRedis, down_for: float) -> object:
    client = prerequisites.get_redis()
    await client.set("before", "1")
    server.stop()
    threading.Timer(down_for, server.start).start()
    try:
        return await client.set("during", "1")
    except Exception as error:  # the test reports what the command met
        return error
    finally:
        await client.aclose()


def test_reflex_alone_gives_up_on_a_redis_that_restarts(redis_server):
    outcome = asyncio.run(_set_while_down(redis_server, 5))
    assert isinstance(outcome, Exception)
    time.sleep(6)  # the restart has happened; the fixture stops it


def test_with_the_change_a_command_waits_for_redis_to_come_back(redis_server):
    platform.redis_waits_out_outages()
    outcome = asyncio.run(_set_while_down(redis_server, 5))
    assert outcome is True
