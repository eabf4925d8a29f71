"""platform/socket_queue.py behaves as asyncio.Queue does for uvicorn's and
engine.io's use (each scenario runs against both), holding no deque."""

from __future__ import annotations

import asyncio
import sys

import pytest

from manga_app.platform.socket_queue import SocketEvent, SocketQueue

QUEUES = [asyncio.Queue, SocketQueue]


def run(scenario, make):
    return asyncio.run(scenario(make))


@pytest.mark.parametrize("make", QUEUES)
def test_items_come_out_in_order_and_a_getter_waits_for_the_next(make):
    async def scenario(make):
        queue = make()
        queue.put_nowait(1)
        await queue.put(2)
        got = [await queue.get(), queue.get_nowait()]
        waiting = asyncio.ensure_future(queue.get())
        await asyncio.sleep(0)
        assert not waiting.done() and queue.empty()
        queue.put_nowait(3)
        got.append(await waiting)
        with pytest.raises(asyncio.QueueEmpty):
            queue.get_nowait()
        return got, queue.qsize()

    assert run(scenario, make) == ([1, 2, 3], 0)


@pytest.mark.parametrize("make", QUEUES)
def test_a_get_that_timed_out_loses_nothing(make):
    """engine.io's writer waits for packets with wait_for(queue.get(), timeout)."""

    async def scenario(make):
        queue = make()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(queue.get(), 0.01)
        queue.put_nowait("packet")
        return await asyncio.wait_for(queue.get(), 1)

    assert run(scenario, make) == "packet"


@pytest.mark.parametrize("make", QUEUES)
def test_a_woken_getter_cancelled_passes_its_item_on(make):
    async def scenario(make):
        queue = make()
        first, second = asyncio.ensure_future(queue.get()), asyncio.ensure_future(queue.get())
        await asyncio.sleep(0)
        queue.put_nowait("only")
        first.cancel()
        return await asyncio.wait_for(second, 1)

    assert run(scenario, make) == "only"


@pytest.mark.parametrize("make", QUEUES)
def test_join_waits_until_every_item_is_done(make):
    """engine.io's close(wait=True) joins its queue."""

    async def scenario(make):
        queue = make()
        await queue.join()  # nothing unfinished
        queue.put_nowait("a")
        queue.put_nowait("b")
        joined = asyncio.ensure_future(queue.join())
        await queue.get()
        queue.task_done()
        await asyncio.sleep(0)
        early = joined.done()
        await queue.get()
        queue.task_done()
        await asyncio.wait_for(joined, 1)
        with pytest.raises(ValueError):
            queue.task_done()
        return early

    assert run(scenario, make) is False


def test_an_idle_queue_holds_a_few_dozen_bytes_not_four_deques():
    idle = SocketQueue()
    assert sys.getsizeof(idle) < 100
    assert all(getattr(idle, name) is None for name in ("_items", "_getters", "_joiners"))


@pytest.mark.parametrize("make", [asyncio.Event, SocketEvent])
def test_an_event_lets_waiters_through_once_set_until_cleared(make):
    """uvicorn waits for its websocket to be writable before every send."""

    async def scenario(make):
        event = make()
        waiters = [asyncio.ensure_future(event.wait()) for _ in range(2)]
        await asyncio.sleep(0)
        blocked = not any(waiter.done() for waiter in waiters)
        event.set()
        woken = await asyncio.gather(*waiters)
        set_now = await asyncio.wait_for(event.wait(), 1)
        event.clear()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(event.wait(), 0.01)
        event.set()
        return blocked, woken, set_now, event.is_set()

    assert run(scenario, make) == (True, [True, True], True, True)
