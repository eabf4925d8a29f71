"""Values many visitors' states hold, held once per process (issue 19).

A title page's chapter rows, a page's JSON-LD: every visitor on that page
computes the same values, and each state kept its own copy for as long as
the tab was open. Here an equal value already held is handed out instead of
the new one, so the states share one object. The values are the same, only
their copies are gone: nothing a visitor sees changes. The states never
change these values in place (they are replaced whole), which is what makes
sharing them safe. Pure: no framework imports."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import TypeVar

V = TypeVar("V")
_MISSING = object()


def text(value: str) -> str:
    """`value` as the one copy every holder of an equal string shares
    (freed once nothing holds it)."""
    return sys.intern(value)


class Shared:
    """The last value handed out under each key, at most `size` keys (the
    longest unused leaves first)."""

    def __init__(self, *, size: int = 4096) -> None:
        self.size = size
        self._held: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = threading.Lock()

    def one(self, key: Hashable, value: V) -> V:
        """The value held under `key` when it equals `value`; else `value`, now held."""
        with self._lock:
            held = self._held.get(key, _MISSING)
            if held is not _MISSING and type(held) is type(value) and held == value:
                self._held.move_to_end(key)
                return held  # type: ignore[return-value]
            self._held[key] = value
            self._held.move_to_end(key)
            while len(self._held) > self.size:
                self._held.popitem(last=False)
            return value

    def __len__(self) -> int:
        return len(self._held)
