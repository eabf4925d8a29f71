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
from manga_app.search.memberships import Memberships

logger = logging.getLogger(__name__)

# Small catalogues index in a blink; big ones are built off the event loop.
_THREAD_ABOVE = 2_000
_current: tuple[Snapshot, SearchIndex] | None = None
_building: asyncio.Task | None = None
_first: asyncio.Lock | None = None
# The newest catalogue's memberships, built before its index when a page
# asked for them first (ready_memberships); the index then builds on them.
_members: Memberships | None = None
_members_building: asyncio.Task | None = None


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


async def ready_memberships() -> Memberships | None:
    """The held catalogue's memberships (memberships.py), never waiting for
    a build: for pages they only add to (a title page's 関連作品). A big
    catalogue's are built in a thread (well under a second, where its search
    index takes tens of seconds): meanwhile the previous catalogue's are
    answered, or None before the first. A small one's are built at once."""
    global _members, _members_building
    snapshot = await held_catalogue().snapshot()
    catalogue = snapshot.mangas
    if _current is not None and _current[1].catalogue is catalogue:
        return _current[1].members
    if _members is not None and _members.catalogue is catalogue:
        return _members
    if len(catalogue) <= _THREAD_ABOVE:
        _members = Memberships(catalogue)
        return _members
    if _members_building is None or _members_building.done():
        _members_building = asyncio.get_running_loop().create_task(_build_members(catalogue))
    return _members if _members is not None else (_current[1].members if _current is not None else None)


async def _build_members(catalogue) -> None:
    global _members
    try:
        members = await asyncio.to_thread(Memberships, catalogue)
    except Exception:  # the next title page tries again
        logger.exception("Could not build the catalogue's memberships")
        return
    if _current is None or _current[1].catalogue is not catalogue:
        _members = members


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
    global _members
    if len(snapshot.mangas) > _THREAD_ABOVE:
        index = await asyncio.to_thread(SearchIndex, snapshot.mangas, _members)
    else:
        index = SearchIndex(snapshot.mangas, _members)
    if _members is None or _members.catalogue is not held_catalogue().current.mangas:
        _members = index.members  # one copy, the index's (unless a newer catalogue's came meanwhile)
    # The catalogue and its index live until the next publish: keep the cycle
    # collector's full passes from walking them during searches (they are
    # still freed by reference counting when replaced).
    gc.freeze()
    return index
