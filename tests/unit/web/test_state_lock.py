"""With state in Redis, each event of a visitor takes that visitor's lock in
Redis, reads the states it needs and writes back what changed. Reflex cancels an event still running when a newer navigation
supersedes it; one cancelled just as its lock was being granted must not
leave the lock behind, or the visitor's next event waits until the lock
expires (10 s), seen as stalled pages in the load benchmark with 3 workers.

Before every event the session guard reads AuthState: that comes in the
event's one read from Redis, not a second round trip.

Reflex's own StateManagerRedis with this site's patches, on the machine's
real Redis server."""

from __future__ import annotations

import asyncio
import collections
import time
import uuid

import pytest
import redis
import redis.asyncio
from reflex.istate.manager.redis import StateManagerRedis

from tests.unit.web.scratch_redis import REDIS_URL, redis_client  # noqa: F401 (a fixture)
from reflex.istate.manager.token import BaseStateToken

from manga_app import platform
from manga_app.visitor.auth_state import AuthState
from manga_app.pages.title.state import TitleState

ATTEMPTS = 40
# How long a left-behind lock is given to go before the test calls it left:
# far below the lock's own 10 s expiry, far above a round trip to Redis.
GRACE_S = 3.0


async def _cancelled_events(tokens: list[BaseStateToken]) -> None:
    """One event per token, each cancelled after a different number of loop
    turns: some before they ask for the lock, some while it is granted."""
    manager = StateManagerRedis(redis=redis.asyncio.Redis.from_url(REDIS_URL))

    async def event(token: BaseStateToken) -> None:
        async with manager.modify_state(token):
            await asyncio.sleep(0)

    for turns, token in enumerate(tokens):
        task = asyncio.create_task(event(token))
        for _ in range(turns % 20):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    # What the cancelled events were granted is given back meanwhile.
    deadline = time.monotonic() + GRACE_S
    while time.monotonic() < deadline and any([await manager.redis.exists(f"{t.ident}_lock") for t in tokens]):
        await asyncio.sleep(0.05)
    await manager.close()


def test_an_event_cancelled_while_taking_the_lock_leaves_no_lock_behind(redis_client: redis.Redis):
    platform.install()
    run = uuid.uuid4().hex[:8]
    tokens = [BaseStateToken(ident=f"lock-{run}-{n}", cls=TitleState) for n in range(ATTEMPTS)]
    asyncio.run(_cancelled_events(tokens))
    left = [token.ident for token in tokens if redis_client.exists(f"{token.ident}_lock")]
    redis_client.delete(*[f"{token.ident}_lock" for token in tokens])
    assert left == [], f"{len(left)} of {ATTEMPTS} cancelled events left their visitor locked"


class CountingRedis(redis.asyncio.Redis):
    """The real client, counting the commands it sends."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sent = collections.Counter()

    async def execute_command(self, *args, **options):
        self.sent[str(args[0]).upper()] += 1
        return await super().execute_command(*args, **options)


def test_an_event_reads_its_states_and_the_session_s_in_one_round_trip(redis_client: redis.Redis):
    platform.install()
    token = BaseStateToken(ident=f"read-{uuid.uuid4().hex[:8]}", cls=TitleState)

    async def event() -> collections.Counter:
        manager = StateManagerRedis(redis=CountingRedis.from_url(REDIS_URL))
        async with manager.modify_state(token) as root:
            await root.get_state(AuthState)  # what the session guard does first
            (await root.get_state(TitleState)).slug = "shingeki"
        sent = manager.redis.sent
        await manager.close()
        return sent

    sent = asyncio.run(event())
    redis_client.delete(*redis_client.keys(f"{token.ident}*"))
    assert sent["MGET"] == 1, sent


# A waiter for a visitor's lock sleeps until a release is announced to it (a
# keyspace event from Redis, or a release in its own process), or else for
# the lock's whole expiry. In the load benchmark with 3 workers, about one
# event in 6,000 waited 10 s on a lock that Redis showed free, its worker
# still listed as waiting: the announcement never reached it. Here no
# announcement reaches the waiter at all (keyspace events are off and the
# lock goes by a plain DEL from another client); it must still take the lock
# long before the lock's expiry.
LONG_EXPIRY_MS = 60_000


async def _waits_after_a_silent_release(lock_key: bytes) -> None:
    manager = StateManagerRedis(redis=redis.asyncio.Redis.from_url(REDIS_URL), lock_expiration=LONG_EXPIRY_MS)
    manager._redis_notify_keyspace_events_enabled = True  # leave the server's setting as the test made it
    other = redis.asyncio.Redis.from_url(REDIS_URL)
    await other.set(lock_key, b"another-worker", px=LONG_EXPIRY_MS)
    waiter = asyncio.create_task(manager._wait_lock(lock_key, b"this-worker"))
    await asyncio.sleep(0.5)  # asleep on the held lock
    assert not waiter.done()
    await other.delete(lock_key)
    try:
        await asyncio.wait_for(waiter, LONG_EXPIRY_MS / 1000 / 4)
    finally:
        await other.delete(lock_key)
        await other.aclose()
        await manager.close()


def test_a_waiter_takes_a_lock_released_without_a_word_long_before_it_expires(redis_client: redis.Redis):
    platform.install()
    events = redis_client.config_get("notify-keyspace-events")["notify-keyspace-events"]
    redis_client.config_set("notify-keyspace-events", "")
    try:
        asyncio.run(_waits_after_a_silent_release(f"silent-{uuid.uuid4().hex[:8]}_lock".encode()))
    finally:
        redis_client.config_set("notify-keyspace-events", events)
