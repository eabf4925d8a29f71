"""Reflex's state manager on Redis: its lock and reads (see the package's docstring).

Overrides: StateManagerRedis._try_get_lock, _get_required_state_classes,
_enable_keyspace_notifications and _lock_waiter (wrapped by the package's
install()); Reflex's Redis key names for the lock.
Why: an event cancelled while its lock was being granted kept the lock until
it expired; the session guard's state cost a second read per event; every
keyspace event of the database was published; a waiter that missed a release
slept until the lock's expiry.
Waits for: Reflex's lock fixes (reflex-dev/reflex#6196, merged: waiting for
the pubsub subscription before relying on release events; #4877, merged:
keyspace notifications enabled once per process) cover part of it; no
upstream issue found for the cancelled grant or the narrower notifications.
"""

from __future__ import annotations

import asyncio
import functools

from reflex.istate.manager.redis import StateManagerRedis

from manga_app.platform.marks import MARK


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


# Before every event the session guard (visitor/session_guard.py) reads
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


# A waiter for a visitor's lock sleeps until a release is announced to it (a
# keyspace event, or a release in its own process), or else for the lock's
# whole expiry, 10 s. In bench_load's saturation with 3 workers and the
# opportunistic lock, about one event in 6,000 waited those 10 s on a lock
# Redis showed free, its worker still listed among the lock's waiters: an
# announcement that reached no waiter (a waiter that was told and then left,
# cancelled or given the state by a lease, takes the word with it). While a
# process has waiters, one of each lock's looks again every WAKE_EVERY_S:
# a lost announcement costs that long, not the expiry. A look at a lock
# still held is one more SET NX, and the waiter sleeps again.
WAKE_EVERY_S = 0.25


def waiters_looked_at_again(lock_waiter):
    @functools.wraps(lock_waiter)
    def waiter(self: StateManagerRedis, lock_key: bytes):
        task = getattr(self, "_wake_task", None)
        if task is None or task.done():
            self._wake_task = asyncio.get_running_loop().create_task(_look_again(self))
        return lock_waiter(self, lock_key)

    setattr(waiter, MARK, True)
    return waiter


async def _look_again(manager: StateManagerRedis) -> None:
    """Until this process waits for no lock: wake one waiter of each lock."""
    while True:
        await asyncio.sleep(WAKE_EVERY_S)
        if not manager._lock_waiters:
            return
        for lock_key in list(manager._lock_waiters):
            manager._notify_next_waiter(lock_key)
