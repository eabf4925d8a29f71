"""Where a visitor's state lives and when it goes: in the worker's memory
without Redis (never pickles on disk), in Redis with a TTL when
REFLEX_REDIS_URL is set; in both, a visitor who stops sending events is
forgotten after the TTL and what their state held is freed. In memory, a
visitor whose tab stays open keeps their state however long they are idle,
and loses it one TTL after the tab closes.

The managers are Reflex's own, built from this project's rxconfig.py; the
state tree is the app's (a title page open), and Redis is the machine's
real server."""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import time
import uuid
import weakref
from pathlib import Path

import pytest
import redis
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.redis import StateManagerRedis

from tests.unit.web.scratch_redis import REDIS_URL, redis_client  # noqa: F401 (a fixture)
from reflex.istate.manager.token import BaseStateToken
from reflex.utils.token_manager import LocalTokenManager

from manga_app import platform
from manga_app.pages.title.state import TitleState
from manga_app.platform import state_lifetime

ROOT = Path(__file__).resolve().parents[3]
# A generous bound for a one-second TTL to pass on a loaded machine: a wait, not a speed figure.
PATIENCE = 60.0


def _manager_for(env: dict[str, str]) -> str:
    """The state manager the app's configuration builds in a fresh process."""
    code = (
        "from reflex.istate.manager import StateManager; m = StateManager.create(); "
        "print(type(m).__name__, m.token_expiration)"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("REFLEX_REDIS")}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, check=True)
    return done.stdout.split("\n")[-2]


def test_without_redis_state_is_held_in_memory_never_in_pickles_on_disk():
    assert _manager_for({}) == "StateManagerMemory 1800"


def test_with_a_redis_url_state_lives_in_redis_and_the_ttl_is_configurable():
    assert _manager_for({"REFLEX_REDIS_URL": REDIS_URL}) == "StateManagerRedis 1800"
    assert _manager_for({"REFLEX_REDIS_URL": REDIS_URL, "REFLEX_REDIS_TOKEN_EXPIRATION": "60"}) == "StateManagerRedis 60"


def _token() -> BaseStateToken:
    return BaseStateToken(ident=str(uuid.uuid4()), cls=TitleState)


async def _open_title(manager, token: BaseStateToken) -> weakref.ref:
    """A visitor opens a title page: their TitleState holds it."""
    async with manager.modify_state(token) as root:
        title = await root.get_state(TitleState)
        title.slug, title.title = "shingeki", "進撃の巨人"
        title.summary = "壁の外の世界" * 200
        return weakref.ref(title)


async def _title_of(manager, token: BaseStateToken) -> str:
    async with manager.modify_state(token) as root:
        return (await root.get_state(TitleState)).title


def _wait_until(predicate, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not predicate():
        assert time.monotonic() < deadline, f"{what} within {PATIENCE:.0f}s"
        time.sleep(0.1)


def test_a_visitor_who_stops_is_forgotten_after_the_ttl_and_their_memory_freed():
    async def scenario():
        manager = StateManagerMemory(token_expiration=1)
        leaving, staying = _token(), _token()
        left = await _open_title(manager, leaving)
        await _open_title(manager, staying)
        assert await _title_of(manager, leaving) == "進撃の巨人"
        deadline = time.monotonic() + PATIENCE
        # The staying visitor keeps sending events; the leaving one sends none.
        while leaving.cache_key in manager.states:
            assert time.monotonic() < deadline, f"the state outlived its TTL by {PATIENCE:.0f}s"
            assert await _title_of(manager, staying) == "進撃の巨人"
            await asyncio.sleep(0.2)
        gc.collect()
        assert left() is None, "the expired visitor's state is still referenced"
        assert manager._states_locks.get(leaving.lock_key) is None
        assert staying.cache_key in manager.states
        # Coming back after the TTL: a fresh state, nothing of the old visit.
        assert await _title_of(manager, leaving) == ""
        await manager.close()

    asyncio.run(scenario())


def test_a_visitor_whose_tab_stays_open_keeps_their_state_however_long_they_are_idle():
    platform.install()

    async def scenario():
        manager = StateManagerMemory(token_expiration=1)
        tabs = LocalTokenManager()  # Reflex's record of the worker's open tabs
        state_lifetime.watch(tabs)
        idle, gone = _token(), _token()
        await tabs.link_token_to_sid(idle.ident, "sid-idle")
        await _open_title(manager, idle)
        await _open_title(manager, gone)
        # Neither sends anything; only the one whose tab closed is forgotten.
        deadline = time.monotonic() + PATIENCE
        while gone.cache_key in manager.states:
            assert time.monotonic() < deadline, f"the closed tab's state outlived its TTL by {PATIENCE:.0f}s"
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.5)  # idle for longer than the TTL
        assert idle.cache_key in manager.states
        assert await _title_of(manager, idle) == "進撃の巨人"
        # The tab closes (socket_guard's disconnect hook, then Reflex's): one TTL later its state goes.
        state_lifetime.closed(manager, idle.ident)
        await tabs.disconnect_token(idle.ident, "sid-idle")
        deadline = time.monotonic() + PATIENCE
        while idle.cache_key in manager.states:
            assert time.monotonic() < deadline, f"the state outlived its closed tab by {PATIENCE:.0f}s"
            await asyncio.sleep(0.2)
        await manager.close()

    asyncio.run(scenario())


def test_in_redis_a_visitor_state_carries_the_ttl_and_is_gone_after_it(redis_client: redis.Redis):
    token = _token()

    async def visit():
        import redis.asyncio

        manager = StateManagerRedis(redis=redis.asyncio.Redis.from_url(REDIS_URL), token_expiration=1)
        await _open_title(manager, token)
        title = await _title_of(manager, token)
        await manager.close()
        return title

    assert asyncio.run(visit()) == "進撃の巨人"
    keys = redis_client.keys(f"{token.ident}*")
    assert keys, "nothing of the visitor was written to Redis"
    assert all(0 < redis_client.pttl(key) <= 1000 for key in keys)
    _wait_until(lambda: not redis_client.keys(f"{token.ident}*"), "the visitor's keys expired")


def test_in_redis_the_state_of_an_open_tab_is_kept_however_long_it_is_idle(redis_client: redis.Redis):
    idle, gone = _token(), _token()

    async def visit():
        import redis.asyncio

        manager = StateManagerRedis(redis=redis.asyncio.Redis.from_url(REDIS_URL), token_expiration=2)
        tabs = LocalTokenManager()
        await tabs.link_token_to_sid(idle.ident, "sid-idle")
        await _open_title(manager, idle)
        await _open_title(manager, gone)
        state_lifetime.watch(tabs, manager)
        deadline = time.monotonic() + PATIENCE
        while redis_client.keys(f"{gone.ident}*"):
            assert time.monotonic() < deadline, "the closed tab's keys expired"
            await asyncio.sleep(0.2)
        await asyncio.sleep(3)  # idle for longer than the TTL
        kept = bool(redis_client.keys(f"{idle.ident}*"))
        title = await _title_of(manager, idle)
        if state_lifetime._refreshing is not None:
            state_lifetime._refreshing.cancel()
        await manager.close()
        return kept, title

    assert asyncio.run(visit()) == (True, "進撃の巨人")


def test_tabs_one_address_opens_and_drops_keep_a_bounded_number_of_states():
    platform.install()

    async def scenario():
        manager = StateManagerMemory(token_expiration=1800)
        tabs = LocalTokenManager()
        state_lifetime.watch(tabs)
        neighbour = _token()  # another address's closed tab: untouched by this one's
        await tabs.link_token_to_sid(neighbour.ident, "sid-neighbour")
        await _open_title(manager, neighbour)
        state_lifetime.closed(manager, neighbour.ident, address="203.0.113.9")
        await tabs.disconnect_token(neighbour.ident, "sid-neighbour")
        dropped = [_token() for _ in range(state_lifetime.MAX_CLOSED_PER_ADDRESS * 2)]
        for number, token in enumerate(dropped):
            await tabs.link_token_to_sid(token.ident, f"sid-{number}")
            await _open_title(manager, token)
            state_lifetime.closed(manager, token.ident, address="198.51.100.7")
            await tabs.disconnect_token(token.ident, f"sid-{number}")
        kept = [token for token in dropped if token.cache_key in manager.states]
        # The newest are kept (a reload within the TTL finds its state); the oldest went at once.
        assert kept == dropped[-len(kept):] and len(kept) <= state_lifetime.MAX_CLOSED_PER_ADDRESS + 1
        assert neighbour.cache_key in manager.states
        assert await _title_of(manager, dropped[-1]) == "進撃の巨人"
        await manager.close()

    asyncio.run(scenario())
