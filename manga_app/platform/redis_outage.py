"""Reflex's Redis client waits out a Redis that stops and comes back.

Overrides: reflex.utils.prerequisites.get_redis (wrapped by the package's
install()): the client it returns gets a retry policy that spans an outage.
Why: Reflex's client retries a failed command three times within about a
second. With Redis stopped for longer (a restart, a failover), every piece
of the state manager failed at once (tests/e2e/test_outage.py): the states a
worker held for its open tabs (50 of 50) were dropped when their write-back
failed, the token manager's and the lock's subscriptions gave up for good
after five errors, and once Redis was back no signed-in writer's next change
was answered with its library. Waiting instead, each command goes through
once Redis answers again: the states held in memory are written back (their
lock outlasts the stop: serve.py sets it to the database wait plus 10 s),
the subscriptions resume, the events that waited are answered.
Waits for: a Reflex setting for the Redis client's retry policy (none in
0.10.1; REFLEX_REDIS_URL carries no retry options).
"""

from __future__ import annotations

import functools
import os

from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff

from manga_app.platform.marks import MARK

# How long a Redis command waits for Redis to answer again, in seconds.
DEFAULT_WAIT_SECONDS = 60.0
# Tries, at most this far apart (the backoff doubles from 50 ms up to it).
_STEP_SECONDS = 1.0


def outage_retry(wait_seconds: float) -> Retry:
    """A retry policy of about `wait_seconds` (one try a second once the backoff is at its cap)."""
    return Retry(ExponentialWithJitterBackoff(cap=_STEP_SECONDS, base=0.05), max(3, int(wait_seconds / _STEP_SECONDS) + 5))


def waits_for_redis(get_redis):
    @functools.wraps(get_redis)
    def client():
        found = get_redis()
        if found is not None:
            found.set_retry(outage_retry(float(os.environ.get("REDIS_WAIT_SECONDS") or DEFAULT_WAIT_SECONDS)))
        return found

    setattr(client, MARK, True)
    return client
