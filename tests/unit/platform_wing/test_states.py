"""manga_app.platform.states: a page's states as its on_load handlers leave them,
in the frontend's format, and safe to write into the page."""

from __future__ import annotations

import asyncio
import json

import pytest

from manga_app.pages import load_events
from manga_app.platform import states
from manga_app.heads.state import HeadState
from manga_app.ui.navigation_state import NavigationState


def _field(name: str) -> str:
    return name + states.FIELD_MARKER


@pytest.mark.parametrize(
    ("template", "path", "params"),
    [
        ("/manga/[slug]", "/manga/yaoya", {"slug": "yaoya"}),
        ("/genre/[name]", "/genre/%E6%81%8B%E6%84%9B", {"name": "恋愛"}),
        ("/[reader_path]", "/yaoya-ch-2", {"reader_path": "yaoya-ch-2"}),
        ("/search", "/search", {}),
    ],
)
def test_route_params_are_reflexs_route_arguments(template, path, params):
    assert states.route_params(template, path) == params


def test_router_data_carries_the_query_and_route_arguments_as_the_browser_sends_them():
    data = states.router_data("/genre/x", "page=2&sort=views", host="manga.test", scheme="https", template="/genre/[name]")
    assert data["pathname"] == "/genre/x"
    assert data["asPath"] == "/genre/x?page=2&sort=views"
    assert data["query"] == {"page": "2", "sort": "views", "name": "x"}
    assert data["headers"] == {"host": "manga.test", "origin": "https://manga.test"}


def test_an_unknown_path_is_not_found_and_only_what_changed_is_seeded():
    data = states.router_data("/no-such-page", "", host="localhost:3000", scheme="http", template="/404")
    seeded = asyncio.run(states.page_states(load_events(None), data))
    head = seeded[HeadState.get_full_name()]
    assert head[_field("found")] is False
    assert head[_field("title")].startswith("ページが見つかりません")
    assert seeded[NavigationState.get_full_name()][_field("stack")] == ["/", "/no-such-page"]
    # Connection data is the live app's, and defaults are already in the build.
    assert not any(name.startswith("rx_router") for values in seeded.values() for name in values)
    assert _field("canonical") not in head or head[_field("canonical")] != ""


def test_each_render_starts_from_a_fresh_state_tree():
    first = states.router_data("/no-such-page", "", host="localhost:3000", scheme="http", template="/404")
    second = states.router_data("/another", "", host="localhost:3000", scheme="http", template="/404")
    asyncio.run(states.page_states(load_events(None), first))
    seeded = asyncio.run(states.page_states(load_events(None), second))
    # Nothing of the first visit is in the second: it is not a visitor's history.
    assert seeded[NavigationState.get_full_name()][_field("stack")] == ["/", "/another"]


@pytest.mark.parametrize("text", ["</script><script>alert(1)</script>", "<!-- x", "\u2028\u2029"])
def test_the_seed_cannot_end_its_script_element(text):
    seed = states.seed_json({"s": {"title_rx_state_": text}})
    assert "<" not in seed and "\u2028" not in seed and "\u2029" not in seed
    assert json.loads(seed) == {"s": {"title_rx_state_": text}}


def test_browser_storage_is_never_seeded_into_a_page_for_every_visitor():
    from manga_app.reader.state import ReaderState

    data = states.router_data("/no-such-page", "", host="localhost:3000", scheme="http", template="/404")
    # A handler that writes the reader's settings (kept in the browser's localStorage).
    seeded = asyncio.run(states.page_states([ReaderState.change_settings({"mode": "vertical"})], data))
    reader = seeded.get(ReaderState.get_full_name(), {})
    assert _field("settings_json") not in reader
    # What the page derives from them is the page's, and is seeded.
    assert reader[_field("mode")] == "vertical"


def test_states_are_seeded_as_reflexs_own_encoder_sends_them():
    from dataclasses import dataclass, field
    from datetime import UTC, date, datetime, timedelta
    from enum import Enum

    from reflex_base.utils import format

    from manga_app.cards.records import Card, Moment, Part

    class Kind(Enum):
        A = "a"

    @dataclass
    class Row:
        when: datetime = datetime(2026, 11, 28, 9, 30, tzinfo=UTC)
        parts: list[Part] = field(default_factory=lambda: [Part("進撃の", wbr=True), Part("巨人")])

    snapshot = {
        "s": {"card": Card(slug="x", updated=Moment("3日前", "2026-11-25")), "rows": [Row(), Row()],
              "day": date(2026, 11, 28), "span": timedelta(hours=1), "tags": {"b"}, "kind": Kind.A,
              "counts": {1: 2, "a": None}, "float": 1e16, "text": "</script>\u2028"},
    }
    assert states.plain_json(snapshot) == json.loads(format.json_dumps(snapshot))
    snapshot["s"]["huge"] = 2**70  # beyond orjson: Reflex's encoder serves it
    assert states.plain_json(snapshot) == json.loads(format.json_dumps(snapshot))
