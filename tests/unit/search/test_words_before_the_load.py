"""The search page's state when the visitor's words reach the app before its
load of the page. The box and its form are in the server-rendered page, and
what the app sends as it connects (the words, an Enter) can be handled
before the page's on_load, which comes after the hydrate: the events run
here in that order, through the page's real handlers."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

import pytest
from reflex.state import State

from manga_app.core.routes import ROUTE_TEMPLATES, PageKind
from manga_app.pages import load_events
from manga_app.pages.search.state import SearchState
from manga_app.platform import states

WORD = "しんげき"


def _at(root: State, query: str) -> None:
    """The URL the next event carries (the address bar when it was sent)."""
    data = states.router_data("/search", query, host="localhost", scheme="http",
                              template=ROUTE_TEMPLATES[PageKind.SEARCH])
    root.router_data = root._update_router_vars(data, root.router_data)


async def _load(root: State) -> None:
    """The page's on_load, with the URL the page was opened with."""
    root.is_hydrated = False  # as the hydrate, or a navigation, leaves it until the end of on_load
    pending = list(load_events(PageKind.SEARCH))
    while pending:
        pending.extend(await states._run(root, pending.pop(0)))
    root.is_hydrated = True


@pytest.mark.parametrize("how", ["enter", "typing"])
def test_words_that_reach_the_app_before_the_pages_load_are_kept(catalogue, how):  # noqa: F811
    async def visit():
        root = State(_reflex_internal_init=True)
        _at(root, "")
        root.is_hydrated = False  # the hydrate has run, the page's on_load not yet
        search = await root.get_state(SearchState)
        if how == "enter":
            await SearchState.submit.fn(search, {"q": WORD})
        else:
            await SearchState.type_query.fn(search, WORD[:2])
            # The first search put its words in the address bar (replaceState).
            _at(root, "q=" + quote(WORD[:2]))
            await SearchState.type_query.fn(search, WORD)
        _at(root, "")
        box = search.input_key
        await _load(root)
        return search.heading, search.query, search.input_key == box

    # Their search is shown, and the box they typed in stays (not remounted empty).
    assert asyncio.run(visit()) == (f"「{WORD}」の検索結果", WORD, True)


def test_words_typed_on_a_loaded_page_give_way_to_the_next_pages_url(catalogue):  # noqa: F811
    async def visit():
        root = State(_reflex_internal_init=True)
        _at(root, "")
        await _load(root)
        search = await root.get_state(SearchState)
        await SearchState.type_query.fn(search, WORD)
        _at(root, "q=" + quote("の"))  # a link or the header's search box
        box = search.input_key
        await _load(root)
        return search.heading, search.query, search.input_key == box

    assert asyncio.run(visit()) == ("「の」の検索結果", "の", False)
