"""The search index of the held catalogue: built once per published
catalogue per process and shared by every visitor (never copied to state).

After a publish, visitors keep searching the previous catalogue and its
index while the new index is built in a worker thread; the pair is swapped
in whole when it is ready. Only the very first build, and the build of a
small catalogue (a blink), are waited for: a small site shows an import at
once, on every page alike."""

from __future__ import annotations

import asyncio
import gc
import logging

from manga_app.read_models.held import Snapshot, held_catalogue
from manga_app.search.index import SearchIndex

logger = logging.getLogger(__name__)

# Small catalogues index in a blink; big ones are built off the event loop.
_THREAD_ABOVE = 2_000
_current: tuple[Snapshot, SearchIndex] | None = None
_building: asyncio.Task | None = None
_first: asyncio.Lock | None = None


async def current_index() -> tuple[Snapshot, SearchIndex]:
    """A held snapshot and the index of its catalogue (the newest ready pair)."""
    global _current, _first
    snapshot = await held_catalogue().snapshot()
    if _current is not None and _current[1].catalogue is snapshot.mangas:
        if _current[0] is not snapshot:  # same list, newer genres
            _current = (snapshot, _current[1])
        return _current
    if _current is None:
        _first = _first or asyncio.Lock()
        async with _first:
            if _current is None:
                _current = (snapshot, await _build(snapshot))
        return _current
    if len(snapshot.mangas) <= _THREAD_ABOVE:
        _current = (snapshot, await _build(snapshot))
        return _current
    _start_build(snapshot)
    return _current


async def ready_index() -> SearchIndex | None:
    """The newest index already built, never waiting seconds for one: for
    pages the index only adds to (a title page's 関連作品). Before the first
    index of a big catalogue this starts its build and answers None; a small
    one is built at once, as current_index does."""
    global _building
    if _current is not None:
        return _current[1]
    if len((await held_catalogue().snapshot()).mangas) <= _THREAD_ABOVE:
        return (await current_index())[1]
    if _building is None or _building.done():
        _building = asyncio.get_running_loop().create_task(current_index())
    return None


def _start_build(snapshot: Snapshot) -> None:
    global _building
    if _building is not None and not _building.done():
        return  # the next call after it finishes notices a still newer catalogue
    _building = asyncio.get_running_loop().create_task(_swap_in(snapshot))


async def _swap_in(snapshot: Snapshot) -> None:
    global _current
    try:
        index = await _build(snapshot)
    except Exception:  # keep serving the previous index; the next search retries
        logger.exception("Could not build the search index")
        return
    _current = (snapshot, index)


async def _build(snapshot: Snapshot) -> SearchIndex:
    if len(snapshot.mangas) > _THREAD_ABOVE:
        index = await asyncio.to_thread(SearchIndex, snapshot.mangas)
    else:
        index = SearchIndex(snapshot.mangas)
    # The catalogue and its index live until the next publish: keep the cycle
    # collector's full passes from walking them during searches (they are
    # still freed by reference counting when replaced).
    gc.freeze()
    return index
