"""Token buckets: `rate` events per second on average, `burst` at once,
per key (a connection, an address). Pure: the caller passes the clock."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    def __init__(self, *, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def allow(self, key: str, now: float) -> bool:
        """Take one token from `key`'s bucket; False when it is empty."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.burst, now)
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)  # the longest unseen key starts afresh
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
            bucket.stamp = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def forget(self, key: str) -> None:
        self._buckets.pop(key, None)


class Notices:
    """At most one notice per key every `interval` seconds."""

    def __init__(self, interval: float, max_keys: int = 100_000) -> None:
        self.interval, self.max_keys = interval, max_keys
        self._last: OrderedDict[str, float] = OrderedDict()

    def due(self, key: str, now: float) -> bool:
        last = self._last.get(key)
        if last is not None and now - last < self.interval:
            return False
        self._last[key] = now
        self._last.move_to_end(key)
        if len(self._last) > self.max_keys:
            self._last.popitem(last=False)
        return True

    def forget(self, key: str) -> None:
        self._last.pop(key, None)
