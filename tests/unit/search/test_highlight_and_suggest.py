"""Highlighted matches and near titles for an empty result."""

from __future__ import annotations

import pytest

from manga_app.search.highlight import best_alternative, segments
from manga_app.search.index import SearchIndex
from manga_app.search.normalize import query_terms
from manga_app.search.suggest import near_titles
from tests.unit.search.builders import item


@pytest.mark.parametrize(
    ("text", "query", "expected"),
    [
        ("進撃の巨人", "進撃", [("進撃", True), ("の巨人", False)]),
        ("鋼鉄のアトリエ", "あとりえ", [("鋼鉄の", False), ("アトリエ", True)]),
        ("ｼﾝｹﾞｷ", "げき", [("ｼﾝ", False), ("ｹﾞｷ", True)]),
        ("トーキョーグール", "とうきょう", [("トーキョー", True), ("グール", False)]),
        ("Attack on Titan", "attack titan", [("Attack", True), (" on ", False), ("Titan", True)]),
        ("ののの", "の", [("ののの", True)]),
        ("進撃の巨人", "shingeki", [("進撃の巨人", False)]),
        ("", "x", [("", False)]),
    ],
)
def test_segments(text, query, expected):
    assert segments(text, query_terms(query)) == expected


def test_best_alternative_is_the_first_that_shows_the_match():
    assert best_alternative(("Attack on Titan", "shingeki no kyojin"), ["shingeki"]) == "shingeki no kyojin"
    assert best_alternative(("Attack on Titan",), ["nothing"]) == ""


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(
        [
            item("進撃の巨人", slug="shingeki", views=10),
            item("星降る街の配達人", slug="hoshi", views=5),
            item("ねこまち日和", slug="neko", views=1),
        ]
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("しんげぎのきょじん", ["shingeki"]),  # a typo
        ("星降る町", ["hoshi"]),  # a wrong kanji
        ("ねこまち日和物語", ["neko"]),  # an extra word
        ("zzzz", []),
    ],
)
def test_near_titles(index, query, expected):
    assert [found.slug for found in near_titles(index, query_terms(query))] == expected
