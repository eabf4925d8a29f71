"""core/shared.py: equal values many visitors' states hold are held once."""

from __future__ import annotations

from dataclasses import dataclass

from manga_app.core import shared


@dataclass
class Row:
    label: str
    published: str


def test_an_equal_value_is_swapped_for_the_one_already_held():
    held = shared.Shared()
    first = held.one(("alpha", "chapters"), [Row("第1話", "3日前")])
    second = held.one(("alpha", "chapters"), [Row("第1話", "3日前")])
    assert second is first


def test_a_changed_value_is_handed_out_as_it_is_and_held_from_then_on():
    held = shared.Shared()
    old = held.one(("alpha", "chapters"), [Row("第1話", "3日前")])
    new = held.one(("alpha", "chapters"), [Row("第1話", "4日前")])
    assert new is not old and new == [Row("第1話", "4日前")]
    assert held.one(("alpha", "chapters"), [Row("第1話", "4日前")]) is new


def test_values_of_other_keys_or_types_are_never_swapped():
    held = shared.Shared()
    alpha = held.one(("alpha", "tags"), ["恋愛"])
    assert held.one(("beta", "tags"), ["恋愛"]) is not alpha
    assert held.one(("alpha", "tags"), ("恋愛",)) == ("恋愛",)


def test_at_most_size_keys_are_held_the_longest_unused_leaving_first():
    held = shared.Shared(size=2)
    a = held.one("a", ["a"])
    held.one("b", ["b"])
    assert held.one("a", ["a"]) is a  # used again: "b" is now the longest unused
    held.one("c", ["c"])
    assert len(held) == 2
    assert held.one("a", ["a"]) is a


def test_equal_texts_are_one_string():
    built = "".join(["{\"@type\":", "\"ComicSeries\"}"])
    again = "".join(["{\"@type\":", "\"ComicSeries\"}"])
    assert built is not again
    assert shared.text(built) is shared.text(again)
