"""platform/event_answers.py: the browser's number of an event is taken off
the frame before Reflex reads it, and only a tab's count is a number."""

from __future__ import annotations

from manga_app.platform.event_answers import FIELD, number_of


def test_the_number_is_taken_out_of_the_frame():
    frame = {"name": "x.y", "payload": {}, FIELD: 7}
    assert number_of(frame) == 7 and FIELD not in frame


def test_anything_but_a_tabs_count_is_no_number():
    for value in (0, -1, 2**53, 1.5, "7", True, None, [7], {"n": 7}):
        frame = {"name": "x.y", FIELD: value}
        assert number_of(frame) is None, value
        assert FIELD not in frame
    assert number_of({"name": "x.y"}) is None
    assert number_of(["not", "a", "frame"]) is None
