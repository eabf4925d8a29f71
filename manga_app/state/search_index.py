"""The search index of the held catalogue: built once per catalogue
snapshot per process and shared by every visitor (never copied to state)."""

from __future__ import annotations

import asyncio
import gc

from manga_app.catalogue.held import Snapshot, held_catalogue
from manga_app.search.index import SearchIndex

# Small catalogues index in a blink; big ones are built off the event loop.
_THREAD_ABOVE = 2_000
_current: tuple[Snapshot, SearchIndex] | None = None
_lock: asyncio.Lock | None = None


async def current_index() -> tuple[Snapshot, SearchIndex]:
    """The held snapshot and its index (rebuilt when the snapshot changes)."""
    global _current, _lock
    snapshot = await held_catalogue().snapshot()
    if _current is not None and _current[0] is snapshot:
        return _current
    _lock = _lock or asyncio.Lock()
    async with _lock:
        if _current is None or _current[0] is not snapshot:
            if len(snapshot.mangas) > _THREAD_ABOVE:
                index = await asyncio.to_thread(SearchIndex, snapshot.mangas)
            else:
                index = SearchIndex(snapshot.mangas)
            _current = (snapshot, index)
            # The catalogue and its index live until the next publish: keep the
            # cycle collector's full passes from walking them during searches
            # (they are still freed by reference counting when replaced).
            gc.freeze()
    return _current
