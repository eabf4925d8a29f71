"""Reflex's state manager on Redis: its lock and reads (see the package's docstring)."""

from __future__ import annotations

import asyncio
import functools

from reflex.istate.manager.redis import StateManagerRedis

from manga_app.reflex_patches.marks import MARK


# ---- state in Redis --------------------------------------------------------
# Every event takes its visitor's lock in Redis (SET NX with a 10 s expiry).
# Reflex cancels an event still running when a newer navigation supersedes
# its on_load chain; cancelled while its SET NX was on its way, the event
# never learns that Redis granted the lock, nobody releases it, and the
# visitor's next events wait for it to expire: 10 s stalls under load with
# several workers (tests/unit/web/test_state_lock.py). The SET NX goes on
# after a cancellation, and what it was granted is given back at once.

_RELEASE_IF_OURS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
_GIVING_BACK: set[asyncio.Task] = set()


def lock_given_back_if_cancelled(try_get_lock):
    @functools.wraps(try_get_lock)
    async def take(self: StateManagerRedis, lock_key: bytes, lock_id: bytes):
        asking = asyncio.ensure_future(try_get_lock(self, lock_key, lock_id))
        try:
            return await asyncio.shield(asking)
        except asyncio.CancelledError:
            asking.add_done_callback(functools.partial(_give_back, self, lock_key, lock_id))
            raise

    setattr(take, MARK, True)
    return take


def _give_back(manager: StateManagerRedis, lock_key: bytes, lock_id: bytes, asking: asyncio.Future) -> None:
    if asking.cancelled() or asking.exception() is not None or not asking.result():
        return

    async def release() -> None:
        await manager.redis.eval(_RELEASE_IF_OURS, 1, lock_key, lock_id)
        manager._notify_next_waiter(lock_key)  # as Reflex after its own release

    task = asyncio.ensure_future(release())
    _GIVING_BACK.add(task)
    task.add_done_callback(_GIVING_BACK.discard)


# Before every event the session guard (accounts/session_guard.py) reads
# AuthState. Reflex reads from Redis only the event's own state, its parents
# and the states its computed vars touch (one MGET), then one more MGET for
# each other state asked for: AuthState cost a second round trip and ~11% of
# a worker's CPU on every event. It comes with the first read instead.


def with_every_event_states(get_required, every_event: tuple[type, ...]):
    @functools.wraps(get_required)
    def required(self, target_state_cls, subclasses=False, required_state_classes=None):
        found = get_required(self, target_state_cls, subclasses, required_state_classes)
        if required_state_classes is None:  # the outer call: what one read fetches
            for state_cls in every_event:
                # with its parents and the states its changes can make dirty, as Reflex would fetch it
                get_required(self, state_cls, False, found)
        return found

    setattr(required, MARK, True)
    return required


# Reflex turns on keyspace events for string and set writes too ("K$sgxe"),
# needed only by its opportunistic lock (off here): every worker was sent
# and parsed a message for each lock taken as well as each lock released.


def lock_release_events_only(enable):
    @functools.wraps(enable)
    async def enable_release_events(self: StateManagerRedis) -> None:
        if not self._oplock_enabled:
            self._redis_notify_keyspace_events = "Kgxe"  # del, expired, evicted
        await enable(self)

    setattr(enable_release_events, MARK, True)
    return enable_release_events
