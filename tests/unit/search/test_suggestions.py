"""Search-box suggestions: what the search finds for the text typed so far,
titles then authors, at most eight, from the index alone."""

from __future__ import annotations

from dataclasses import replace

import pytest

from manga_app.catalogue.readings import readings_for
from manga_app.core import routes
from manga_app.search.index import SearchIndex
from manga_app.search.suggest import AUTHOR, SUGGESTIONS, TITLE, Suggestion, suggestions
from tests.unit.search import builders


def item(title: str, **fields):
    """builders.item with the readings of the authors' names too, as the
    publisher lists them (catalogue/publish_lists.distinct_readings)."""
    made = builders.item(title, **fields)
    names = [form for name in made.authors for form in readings_for(name) if form]
    return replace(made, readings=(*made.readings, *names))


CATALOGUE = [
    item("進撃の巨人", slug="shingeki", views=50, authors=("諫山創",)),
    item("進撃少女", slug="shingeki-girl", views=900, authors=("綾瀬つむぎ",)),
    item("新月の森", slug="shingetsu", views=3, authors=("綾瀬つむぎ",)),
    item("ねこまち日和", slug="nekomachi", views=5, authors=("小日向こはる",)),
    item("鋼鉄のアトリエ", slug="koutetsu", views=7, authors=("時雨沢レイ",)),
    *(item(f"しんげき外伝{n}", slug=f"gaiden-{n}", views=n) for n in range(6)),
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(CATALOGUE)


def labels(index: SearchIndex, typed: str) -> list[str]:
    return [found.label for found in suggestions(index, typed)]


@pytest.mark.parametrize("typed", ["しんげ", "シンゲ", "ｼﾝｹﾞ", "shinge", "進撃", "しんげきの"])
def test_the_first_kana_of_a_title_suggest_it(index, typed):
    assert "進撃の巨人" in labels(index, typed)


def test_at_most_eight_titles_in_relevance_order(index):
    found = suggestions(index, "しんげき")
    # titles starting with the words first, then those whose reading does,
    # the most read first within each (search.ranking's tiers)
    assert [f.label for f in found] == [*(f"しんげき外伝{n}" for n in range(5, -1, -1)), "進撃少女", "進撃の巨人"]
    assert len(found) == SUGGESTIONS
    assert found[6] == Suggestion(TITLE, "進撃少女", routes.manga_url("shingeki-girl"))


@pytest.mark.parametrize("typed", ["綾瀬", "あやせ", "アヤセ", "ayase", "つむぎ"])
def test_an_author_is_suggested_by_the_name_or_its_reading(index, typed):
    found = suggestions(index, typed)
    assert Suggestion(AUTHOR, "綾瀬つむぎ", routes.search_url(q="綾瀬つむぎ")) in found
    assert found[-1].kind == AUTHOR  # titles first, then authors
    assert {"進撃少女", "新月の森"} <= {f.label for f in found if f.kind == TITLE}


def test_an_author_is_not_suggested_for_a_word_of_a_title(index):
    assert [f.kind for f in suggestions(index, "ねこまち")] == [TITLE]


@pytest.mark.parametrize("typed", ["", "   ", "\u0000\u200b", "ぬけへぺゑゐ", "x" * 10_000])
def test_nothing_found_or_nothing_typed_suggests_nothing(index, typed):
    assert suggestions(index, typed) == []
