"""A queue for one open websocket, as asyncio.Queue behaves for the way
uvicorn and engine.io use theirs, without its fixed cost (issue 19).

Each open websocket has two queues (uvicorn's messages from the browser,
engine.io's packets to it), idle nearly all the time. An asyncio.Queue
allocates four deques up front (items, waiting getters, waiting putters,
and its join Event's waiters), 760 bytes each: 6 KB per open tab. This one
allocates a list only while it holds something or someone waits.

Unbounded (neither uvicorn nor engine.io gives a maxsize, so `put` never
waits); `get`, `join`, `task_done` as asyncio.Queue's. SocketEvent is
asyncio.Event likewise (uvicorn's "writable" flag of each websocket), its
list of waiters allocated only while someone waits. Pure asyncio.

Overrides: asyncio.Queue and asyncio.Event where uvicorn's websocket protocol
and engine.io's socket keep theirs (installed by event_socket.py and
websocket_protocol.py).
Why: 6 KB per open tab of deques allocated up front (issue 19).
Waits for: no upstream issue found; uvicorn and engine.io allocating their
queues lazily, or a CPython asyncio.Queue that does.
"""

from __future__ import annotations

import asyncio
from typing import Any


class SocketQueue:
    __slots__ = ("_items", "_getters", "_unfinished", "_joiners")

    def __init__(self) -> None:
        self._items: list[Any] | None = None
        self._getters: list[asyncio.Future] | None = None
        self._unfinished = 0
        self._joiners: list[asyncio.Future] | None = None

    def qsize(self) -> int:
        return len(self._items) if self._items else 0

    def empty(self) -> bool:
        return not self._items

    def full(self) -> bool:
        return False

    def put_nowait(self, item: Any) -> None:
        if self._items is None:
            self._items = [item]
        else:
            self._items.append(item)
        self._unfinished += 1
        self._wake_getter()

    async def put(self, item: Any) -> None:
        self.put_nowait(item)

    def get_nowait(self) -> Any:
        if not self._items:
            raise asyncio.QueueEmpty
        item = self._items.pop(0)
        if not self._items:
            self._items = None
        return item

    async def get(self) -> Any:
        while not self._items:
            getter = asyncio.get_running_loop().create_future()
            if self._getters is None:
                self._getters = []
            self._getters.append(getter)
            try:
                await getter
            except BaseException:
                getter.cancel()
                self._forget(getter)
                # Woken and cancelled at once: the item it was woken for is another getter's.
                if self._items:
                    self._wake_getter()
                raise
            self._forget(getter)
        return self.get_nowait()

    def task_done(self) -> None:
        if self._unfinished <= 0:
            raise ValueError("task_done() called too many times")
        self._unfinished -= 1
        if self._unfinished == 0 and self._joiners:
            joiners, self._joiners = self._joiners, None
            for joiner in joiners:
                if not joiner.done():
                    joiner.set_result(None)

    async def join(self) -> None:
        if self._unfinished > 0:
            joiner = asyncio.get_running_loop().create_future()
            if self._joiners is None:
                self._joiners = []
            self._joiners.append(joiner)
            await joiner

    def _wake_getter(self) -> None:
        for getter in self._getters or ():
            if not getter.done():
                getter.set_result(None)
                return

    def _forget(self, getter: asyncio.Future) -> None:
        if self._getters is not None:
            if getter in self._getters:
                self._getters.remove(getter)
            if not self._getters:
                self._getters = None


class SocketEvent:
    __slots__ = ("_value", "_waiters")

    def __init__(self) -> None:
        self._value = False
        self._waiters: list[asyncio.Future] | None = None

    def is_set(self) -> bool:
        return self._value

    def set(self) -> None:
        if not self._value:
            self._value = True
            for waiter in self._waiters or ():
                if not waiter.done():
                    waiter.set_result(True)

    def clear(self) -> None:
        self._value = False

    async def wait(self) -> bool:
        if self._value:
            return True
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
            return True
        finally:
            if self._waiters is not None:
                self._waiters.remove(waiter)
                if not self._waiters:
                    self._waiters = None
