"""The Redis database the state tests may write to and empty, and a client of it
(the test fails, never skips, when Redis is not running)."""

from __future__ import annotations

import os

import pytest
import redis

REDIS_URL = os.environ.get("MANGA_TEST_REDIS_URL_STATE", "redis://127.0.0.1:6379/9")


@pytest.fixture
def redis_client() -> redis.Redis:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.ConnectionError as exc:
        pytest.fail(f"Redis unreachable at {REDIS_URL} ({exc})")
    return client
