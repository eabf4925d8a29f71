"""A title's rows, as the title page's state, its head and its reader pages
read them: one query per title while the held catalogue is current."""

from __future__ import annotations

import asyncio
import re

import sqlalchemy as sa

from manga_app.core.db import shared_engine
from manga_app.core.routes import ROUTE_TEMPLATES, PageKind
from reflex.state import State

from manga_app.read_models import title_cache
from manga_app.read_models.held import held_catalogue
from manga_app.heads.state import HeadState
from manga_app.pages import load_events
from manga_app.pages.title.state import TitleState
from manga_app.platform import states


def _queries() -> list[str]:
    seen: list[str] = []
    sa.event.listen(shared_engine(), "before_cursor_execute", lambda *args: seen.append(args[2]))
    return seen


def test_a_title_read_by_its_page_and_its_reader_pages_is_queried_once(catalogue):  # noqa: F811
    queries = _queries()
    series, chapters = title_cache.load_title("alpha")
    assert (series.slug, [chapter.number for chapter in chapters]) == ("alpha", ["1", "2", "3"])
    first = len(queries)
    assert first > 0
    assert title_cache.load_title("alpha") == (series, chapters)
    context = title_cache.load_chapter({"slug": "alpha", "number": "2", "chapter_slug": ""})
    assert (context.chapter.number, context.previous.number, context.next.number) == ("2", "1", "3")
    assert len(queries) == first


def test_an_unknown_title_is_asked_again_every_time_it_may_have_been_imported(catalogue):  # noqa: F811
    queries = _queries()
    assert title_cache.load_title("nope") is None
    asked = len(queries)
    assert title_cache.load_title("nope") is None
    assert len(queries) == 2 * asked


def test_a_title_pages_request_and_then_its_event_read_the_title_once(catalogue):  # noqa: F811
    """The server renders /manga/alpha with the page's on_load (its head and
    its title state); the app in the browser then runs the same on_load as
    an event. The series row is read once for both."""
    data = states.router_data("/manga/alpha", "", host="localhost", scheme="http",
                              template=ROUTE_TEMPLATES[PageKind.MANGA])
    # Held before the first request, as the app's start (its lifespan tasks)
    # does: the title page's 関連作品 read it.
    asyncio.run(held_catalogue().snapshot())
    queries = _queries()
    request = asyncio.run(states.page_states(load_events(PageKind.MANGA), data))
    event = asyncio.run(states.page_states(load_events(PageKind.MANGA), data))
    assert request[TitleState.get_full_name()]["slug" + states.FIELD_MARKER] == "alpha"
    assert event == request
    assert len([query for query in queries if re.search(r"\bFROM series\b", query)]) == 1


async def _visitor_on(path: str, kind: PageKind) -> State:
    """A visitor's state tree after the page's on_load, as a hydrate leaves it."""
    root = State(_reflex_internal_init=True)
    root.router_data = root._update_router_vars(
        states.router_data(path, "", host="localhost", scheme="http", template=ROUTE_TEMPLATES[kind]), {})
    pending = list(load_events(kind))
    while pending:
        pending.extend(await states._run(root, pending.pop(0)))
    return root


def test_visitors_of_one_title_page_hold_one_copy_of_its_lists_and_head(catalogue):  # noqa: F811
    """Memory per connected visitor (issue 19): the chapter rows and the
    JSON-LD are the same for every visitor of a title, and each tab's state
    is held for as long as it is open."""

    async def two_visitors():
        roots = [await _visitor_on("/manga/alpha", PageKind.MANGA) for _ in range(2)]
        return roots, [await states._resolve_delta(root.dict()) for root in roots]

    (first, second), sent = asyncio.run(two_visitors())
    title = [root.get_substate(TitleState._get_substate_path()) for root in (first, second)]
    head = [root.get_substate(HeadState._get_substate_path()) for root in (first, second)]
    assert [row.number for row in title[0].get_value("chapters")] == ["3", "2", "1"]
    for name in ("chapters", "volumes", "genres", "authors", "tags", "aliases"):
        assert title[1].get_value(name) is title[0].get_value(name), name
    assert head[0].json_ld.startswith("{") and head[1].get_value("json_ld") is head[0].get_value("json_ld")
    # What each visitor is sent is what they were sent before.
    for state in (TitleState, HeadState):
        assert sent[0][state.get_full_name()] == sent[1][state.get_full_name()]
        assert sent[0][state.get_full_name()]["chapters_rx_state_" if state is TitleState else "json_ld_rx_state_"]
