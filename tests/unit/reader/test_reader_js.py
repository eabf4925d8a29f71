"""The reader's pure JavaScript helpers (assets/js/reader/: input.js,
layout.js, positions.js), run by the project's own Node and checked here
against tables of cases: keys, taps and swipes in both directions, double
pages and spreads, drawn sizes, the strip position, the per-chapter store."""

from __future__ import annotations

import json

import pytest

from tests.unit.node import JS, run_module


def run_js(module: str, body: str) -> object:
    """Runs `body` (which must `return` a JSON value) with assets/js/reader/`module`'s exports as `m`."""
    return run_module(JS / "reader" / module, body)


# ---- input.js -------------------------------------------------------------------

KEY_CASES = [
    # key, shift, direction, mode, can scroll down, can scroll up, action
    ("ArrowLeft", False, "rtl", "paged", False, False, "next"),
    ("ArrowRight", False, "rtl", "paged", False, False, "prev"),
    ("ArrowLeft", False, "ltr", "paged", False, False, "prev"),
    ("ArrowRight", False, "ltr", "paged", False, False, "next"),
    ("ArrowRight", False, "ltr", "vertical", False, False, "next"),
    (" ", False, "rtl", "paged", False, False, "next"),
    (" ", True, "rtl", "paged", False, False, "prev"),
    # A page taller than the screen scrolls before it turns.
    (" ", False, "rtl", "paged", True, False, "scroll-down"),
    (" ", True, "rtl", "paged", False, True, "scroll-up"),
    ("PageDown", False, "ltr", "paged", True, False, "scroll-down"),
    ("PageUp", False, "ltr", "paged", False, False, "prev"),
    ("ArrowDown", False, "rtl", "paged", True, False, "line-down"),
    ("ArrowDown", False, "rtl", "paged", False, False, "next"),
    ("ArrowUp", False, "rtl", "paged", False, True, "line-up"),
    # The vertical strip leaves scrolling keys to the browser.
    (" ", False, "ltr", "vertical", True, False, None),
    ("ArrowDown", False, "ltr", "vertical", True, False, None),
    ("Home", False, "rtl", "vertical", False, False, "first"),
    ("End", False, "rtl", "paged", False, False, "last"),
    ("Escape", False, "rtl", "paged", False, False, "menu"),
    ("a", False, "rtl", "paged", False, False, None),
]


@pytest.mark.parametrize(("key", "shift", "direction", "mode", "down", "up", "action"), KEY_CASES)
def test_keys(key, shift, direction, mode, down, up, action) -> None:
    event = {"key": key, "shiftKey": shift}
    context = {"direction": direction, "mode": mode, "canScrollDown": down, "canScrollUp": up}
    assert run_js("input.js", f"return m.keyAction({json.dumps(event)}, {json.dumps(context)});") == action


def test_keys_with_a_modifier_are_the_browsers() -> None:
    assert run_js("input.js", "return m.keyAction({key: 'ArrowLeft', ctrlKey: true}, {direction: 'rtl', mode: 'paged'});") is None


TAP_CASES = [
    # x on a 390 px screen, direction, swapped, action
    (40, "rtl", False, "next"),
    (350, "rtl", False, "prev"),
    (40, "ltr", False, "prev"),
    (350, "ltr", False, "next"),
    (195, "ltr", False, "menu"),
    # One-handed: the zones trade places, the centre stays the menu.
    (40, "ltr", True, "next"),
    (350, "ltr", True, "prev"),
    (40, "rtl", True, "prev"),
    (195, "rtl", True, "menu"),
]


@pytest.mark.parametrize(("x", "direction", "swapped", "action"), TAP_CASES)
def test_tap_zones(x, direction, swapped, action) -> None:
    assert run_js("input.js", f"return m.tapAction({x}, 390, {json.dumps(direction)}, {json.dumps(swapped)});") == action


SWIPE_CASES = [
    # dx, dy, direction, pan, action
    (200, 0, "rtl", None, "next"),  # the finger drags the page to the right
    (-200, 0, "rtl", None, "prev"),
    (200, 0, "ltr", None, "prev"),
    (30, 0, "rtl", None, None),  # too short
    (100, 120, "rtl", None, None),  # mostly vertical
    # A page wider than the screen: pan while it can move that way.
    (200, 0, "rtl", {"left": True, "right": False, "moved": False}, None),
    (200, 0, "rtl", {"left": False, "right": True, "moved": False}, "next"),
    (-200, 0, "rtl", {"left": False, "right": True, "moved": False}, None),
    (-200, 0, "ltr", {"left": True, "right": False, "moved": False}, "next"),
    (200, 0, "rtl", {"left": False, "right": False, "moved": True}, None),  # it did pan
]


@pytest.mark.parametrize(("dx", "dy", "direction", "pan", "action"), SWIPE_CASES)
def test_swipes(dx, dy, direction, pan, action) -> None:
    assert run_js("input.js", f"return m.swipeAction({dx}, {dy}, {json.dumps(direction)}, {json.dumps(pan)});") == action


# ---- layout.js ---------------------------------------------------------------------

P, W = {"width": 720, "height": 1024}, {"width": 1440, "height": 1024}


@pytest.mark.parametrize(
    ("pages", "double", "offset", "units"),
    [
        ([P, P, P, P], False, False, [[0], [1], [2], [3]]),
        ([P, P, P, P], True, False, [[0, 1], [2, 3]]),
        ([P, P, P, P], True, True, [[0], [1, 2], [3]]),
        ([P, P, W, P, P], True, False, [[0, 1], [2], [3, 4]]),
        ([P, W, P, P], True, False, [[0], [1], [2, 3]]),  # a spread is always alone
        ([W, P, P], True, True, [[0], [1, 2]]),
        ([P, P, P], True, False, [[0, 1], [2]]),
    ],
)
def test_double_page_units(pages, double, offset, units) -> None:
    assert run_js("layout.js", f"return m.buildUnits({json.dumps(pages)}, {json.dumps(double)}, {json.dumps(offset)});") == units


def test_a_units_pages_share_its_width_by_their_shapes() -> None:
    # reader_pages.css draws each page at the unit's common height from these.
    wide = {"width": 1440, "height": 1024}
    found = run_js("layout.js", f"return m.unitStyles({json.dumps([P, P])}, 'auto');")
    assert found == [{"--share": 0.70313, "--ratio": 1.40625}] * 2
    alone = run_js("layout.js", f"return m.unitStyles({json.dumps([wide])}, 'width');")
    assert alone == [{"--share": 1.40625, "--ratio": 1.40625}]


def test_original_size_pages_are_drawn_at_their_own_size() -> None:
    # Times the reader's zoom (--zoom, 1 when unset).
    found = run_js("layout.js", f"return m.unitStyles({json.dumps([P])}, 'original');")
    assert found == [{"width": "calc(720px * var(--zoom, 1))", "height": "calc(1024px * var(--zoom, 1))"}]


@pytest.mark.parametrize(
    ("rects", "page", "offset"),
    [
        ([(-100, 900), (900, 1800)], 0, 0.102),
        ([(-900, 2), (2, 902)], 1, 0.0),  # a top exactly on the reading line is that page's
        ([(-1900, -1000), (-1000, 100)], 1, 0.911),
        ([(-1900, -1000), (-1000, -10)], 1, 1.0),  # past the last page
    ],
)
def test_the_page_under_the_reading_line(rects, page, offset) -> None:
    boxes = [{"top": top, "bottom": bottom, "height": bottom - top} for top, bottom in rects]
    found = run_js("layout.js", f"return m.positionInStrip({json.dumps(boxes)}, 2);")
    assert found["page"] == page and abs(found["offset"] - offset) < 0.001


# ---- positions.js -----------------------------------------------------------------


def test_a_position_is_kept_per_chapter_and_survives_garbage() -> None:
    found = run_js(
        "positions.js",
        """
        m.writePosition('a/1', 3, 0.25, 1000);
        m.writePosition('a/2', 1, 0.5, 2000);
        const both = [m.readPosition('a/1'), m.readPosition('a/2'), m.readPosition('a/3')];
        localStorage.setItem(m.POSITIONS_KEY, 'not json');
        const afterGarbage = m.readPosition('a/1');
        localStorage.setItem(m.POSITIONS_KEY, JSON.stringify({v: 1, items: {'a/1': [-1, 7, 'x']}}));
        return [both, afterGarbage, m.readPosition('a/1')];
        """,
    )
    assert found == [[{"page": 3, "offset": 0.25, "at": 1000}, {"page": 1, "offset": 0.5, "at": 2000}, None], None, None]


def test_the_store_keeps_the_newest_chapters_only() -> None:
    found = run_js(
        "positions.js",
        """
        for (let i = 0; i < m.MAX_POSITIONS + 20; i += 1) m.writePosition(`s/${i}`, 1, 0, 1000 + i);
        const items = JSON.parse(localStorage.getItem(m.POSITIONS_KEY)).items;
        return [Object.keys(items).length, 's/0' in items, `s/${m.MAX_POSITIONS + 19}` in items];
        """,
    )
    assert found == [300, False, True]


@pytest.mark.parametrize(
    ("stored", "history", "total", "start"),
    [
        (None, None, 10, {"page": 0, "offset": 0}),
        (None, {"page": 4, "offset": 0.5, "at": 5000}, 10, {"page": 4, "offset": 0.5}),
        ([6, 0.2, 9000], {"page": 4, "offset": 0.5, "at": 5000}, 10, {"page": 6, "offset": 0.2}),
        # Another device saved later (signed in): its position wins.
        ([6, 0.2, 9000], {"page": 4, "offset": 0.5, "at": 20000}, 10, {"page": 4, "offset": 0.5}),
        # The history keeps whole seconds: the same moment is this browser's.
        ([6, 0.2, 9500], {"page": 4, "offset": 0.5, "at": 9000}, 10, {"page": 6, "offset": 0.2}),
        ([6, 0.2, 9000], {"page": 0, "offset": 0, "at": 0}, 10, {"page": 6, "offset": 0.2}),
        ([40, 0.2, 9000], None, 10, {"page": 9, "offset": 0.2}),  # the chapter got shorter
        # No history and nothing stored: the server's guess (this browser's
        # first-page cookie) is where the page was drawn, so it stays.
        (None, {"page": 2, "offset": 0, "at": 0}, 10, {"page": 2, "offset": 0}),
    ],
)
def test_where_a_chapter_opens(stored, history, total, start) -> None:
    write = f"m.writePosition('s/1', {stored[0]}, {stored[1]}, {stored[2]});" if stored else ""
    found = run_js("positions.js", f"{write} return m.startPosition('s/1', {json.dumps(history)}, {total});")
    assert found == start


def test_the_server_is_told_the_chapter_read_last_its_page_and_the_quality() -> None:
    found = run_js(
        "positions.js",
        "m.rememberFirstPage('s/10.5', 3.7, true); const a = document.cookie;"
        "m.rememberFirstPage('s/1', -2, false); return [a, document.cookie];",
    )
    assert found[0].startswith("manga_reader_first=1:s/10.5:3; path=/; max-age=")
    assert found[1].startswith("manga_reader_first=0:s/1:0;") and "samesite=lax" in found[1]
