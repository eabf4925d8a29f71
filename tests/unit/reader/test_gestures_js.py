"""The reader's pure JavaScript rules for zoom, loading order and double
pages (assets/js/reader/: zoom.js, queue.js, layout.js, input.js), run by
the project's own Node against tables of cases."""

from __future__ import annotations

import json

import pytest

from tests.unit.reader.test_reader_js import run_js

# ---- zoom.js --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("m.clampZoom(0.5)", 1),
        ("m.clampZoom(9)", 4),
        ("m.clampZoom(NaN)", 1),
        ("m.settledZoom(1.03)", 1),  # a pinch that ends near fit is fit
        ("m.settledZoom(2.5)", 2.5),
        ("m.doubleTapZoom(1)", 2.5),
        ("m.doubleTapZoom(3.2)", 1),  # zoomed: back to fit
        ("m.keyZoom(1, 'zoom-in')", 1.25),
        ("m.keyZoom(1.25, 'zoom-out')", 1),
        ("m.keyZoom(4, 'zoom-in')", 4),
        ("m.keyZoom(3, 'zoom-reset')", 1),
        ("m.pinchZoom(1, 100, 300)", 3),
        ("m.pinchZoom(2, 100, 1000)", 4),
        ("m.pinchZoom(2, 0, 100)", 2),
        ("m.wheelZoom(1, 300) === 1", True),  # wheel down at fit stays at fit
        ("m.wheelZoom(1, -300) > 2.5 && m.wheelZoom(1, -300) < 2.9", True),
        ("m.wheelZoom(1, -10, 1) === m.wheelZoom(1, -160, 0)", True),  # lines are 16 px
    ],
)
def test_zoom_rules(call: str, expected: object) -> None:
    assert run_js("zoom.js", f"return {call};") == expected


@pytest.mark.parametrize(
    ("second", "double"),
    [
        ({"at": 1200, "x": 105, "y": 210}, True),
        ({"at": 1350, "x": 100, "y": 200}, False),  # too late: two taps
        ({"at": 1100, "x": 300, "y": 200}, False),  # too far
    ],
)
def test_a_double_tap_is_two_taps_soon_and_close(second: dict, double: bool) -> None:
    first = {"at": 1000, "x": 100, "y": 200}
    assert run_js("zoom.js", f"return m.isDoubleTap({json.dumps(first)}, {json.dumps(second)});") is double
    assert run_js("zoom.js", f"return m.isDoubleTap(null, {json.dumps(second)});") is False


@pytest.mark.parametrize(("key", "action"), [("+", "zoom-in"), ("=", "zoom-in"), ("-", "zoom-out"), ("0", "zoom-reset")])
def test_zoom_keys(key: str, action: str) -> None:
    context = {"direction": "rtl", "mode": "paged"}
    assert run_js("input.js", f"return m.keyAction({json.dumps({'key': key})}, {json.dumps(context)});") == action
    # With ctrl or ⌘ they are the browser's own zoom.
    assert run_js("input.js", f"return m.keyAction({json.dumps({'key': key, 'ctrlKey': True})}, {json.dumps(context)});") is None


# ---- queue.js: reading order, at most three requests ------------------------------


def _plan(order: list[str], loading: list[str], loaded: list[str]) -> dict:
    return run_js(
        "queue.js",
        f"return m.planLoads({json.dumps(order)}, new Set({json.dumps(loading)}), new Set({json.dumps(loaded)}));",
    )


PAGES = [f"p{index}" for index in range(8)]


@pytest.mark.parametrize(
    ("order", "loading", "loaded", "start", "cancel"),
    [
        # Opening: the page on screen alone, then the next two one at a time.
        (PAGES, [], [], ["p0"], []),
        (PAGES, [], ["p0"], ["p1"], []),
        (PAGES, [], ["p0", "p1"], ["p2"], []),
        # Those in: the later ones three at once.
        (PAGES, [], ["p0", "p1", "p2"], ["p3", "p4", "p5"], []),
        # One done: the next in reading order takes its place.
        (PAGES, ["p4", "p5"], ["p0", "p1", "p2", "p3"], ["p6"], []),
        (PAGES, ["p3", "p4", "p5"], ["p0", "p1", "p2"], [], []),
        # Turned to page 6, not loaded: every request ahead gives way, and it loads alone.
        (PAGES[6:], ["p3", "p4", "p5"], ["p0", "p1", "p2"], ["p6"], ["p3", "p4", "p5"]),
        # A page on screen already loading keeps its request, and nothing starts beside it.
        (PAGES[4:], ["p3", "p4", "p5"], ["p0", "p1", "p2"], [], ["p3"]),
        (["p1", "p1", "", "p2"], [], [], ["p1"], []),
    ],
)
def test_pages_load_in_reading_order_the_next_ones_alone_then_three_at_a_time(order, loading, loaded, start, cancel) -> None:
    assert _plan(order, loading, loaded) == {"start": start, "cancel": cancel}


# ---- layout.js ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("current", "total", "ahead", "expected"),
    [(0, 5, 5, [0, 1, 2, 3, 4]), (2, 5, 5, [2, 3, 4]), (0, 64, 6, [0, 1, 2, 3, 4, 5, 6]), (9, 5, 2, [4]), (0, 0, 3, [])],
)
def test_load_order_is_the_page_on_screen_then_the_next_ones(current, total, ahead, expected) -> None:
    assert run_js("layout.js", f"return m.loadOrder({current}, {total}, {ahead});") == expected


@pytest.mark.parametrize(("unit", "label"), [([0], "1"), ([1, 2], "2-3"), ([9], "10"), ([], "")])
def test_the_counter_names_both_pages_of_a_pair(unit: list[int], label: str) -> None:
    assert run_js("layout.js", f"return m.unitLabel({json.dumps(unit)});") == label


@pytest.mark.parametrize(("page", "reached"), [(0, 0), (1, 2), (2, 2), (3, 3), (4, 5), (9, 9)])
def test_a_screens_position_is_its_last_page(page: int, reached: int) -> None:
    units = [[0], [1, 2], [3], [4, 5]]
    assert run_js("layout.js", f"return m.lastShown({json.dumps(units)}, {page});") == reached


@pytest.mark.parametrize(
    ("chosen", "chapter", "offset"),
    [("null", "true", True), ("undefined", "true", True), ("null", "false", False), ("null", "undefined", False),
     ("false", "true", False), ("true", "false", True)],
)
def test_the_readers_own_offset_overrides_the_chapters(chosen: str, chapter: str, offset: bool) -> None:
    assert run_js("layout.js", f"return m.pairingOffset({chosen}, {chapter});") is offset


