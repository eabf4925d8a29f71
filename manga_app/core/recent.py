"""A small, thread-safe cache of recent values: each is kept for `seconds`
after it was computed, at most `size` of them (the oldest leave first).
Pure: the caller passes the time."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")
MISSING = object()


class Recent(Generic[V]):
    def __init__(self, *, size: int, seconds: float) -> None:
        self.size, self.seconds = size, seconds
        self._items: OrderedDict[Hashable, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, now: float) -> V | object:
        """The value for `key` if it was computed less than `seconds` before `now`, else MISSING."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return MISSING
            if now - found[0] >= self.seconds:
                del self._items[key]
                return MISSING
            return found[1]

    def put(self, key: Hashable, value: V, now: float) -> None:
        with self._lock:
            self._items.pop(key, None)
            self._items[key] = (now, value)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
