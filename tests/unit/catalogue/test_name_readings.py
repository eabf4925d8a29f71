"""Readings of titles and of their authors' names, as the importer stores them."""

from __future__ import annotations

from manga_app.catalogue.models import Series
from manga_app.catalogue.publish_lists import distinct_readings
from manga_app.catalogue.upsert import _refresh_search


def _series(**fields) -> Series:
    series = Series(slug="s", title="灯台守と渡り鳥", title_key="灯台守と渡り鳥", **fields)
    _refresh_search(series)
    return series


def test_a_name_is_read_by_the_name_dictionary_when_it_knows_the_person():
    series = _series(authors=["永井豪"])
    assert [r["hiragana"] for r in series.readings if r.get("of") == "name"] == ["ながいごう"]


def test_each_author_and_artist_gets_a_reading_marked_as_a_name():
    series = _series(authors=["手塚治虫"], artists=["ちばてつや"])
    names = [(r["text"], r["hiragana"]) for r in series.readings if r.get("of") == "name"]
    assert names == [("手塚治虫", "てづかおさむ"), ("ちばてつや", "ちばてつや")]
    # the title's reading stays first: search sorts titles by it
    assert series.readings[0]["hiragana"] == "とうだいもりとわたりどり"
    assert "とうだいもり" in series.search_text and "てづか" not in series.search_text


def test_a_reading_the_operator_gave_wins_and_survives_a_refresh():
    series = _series(authors=["荒川弘"])
    generated = next(r for r in series.readings if r["text"] == "荒川弘")
    assert generated["hiragana"] == "あらかわひろし"  # the generator's guess: the name is read あらかわひろむ
    series.readings = [
        *[r for r in series.readings if r["text"] != "荒川弘"],
        {**generated, "hiragana": "あらかわひろむ", "romaji": "arakawa hiromu", "source": "operator"},
    ]
    series.artists = ["石ノ森章太郎"]  # a new name: the readings are made again
    _refresh_search(series)
    by_text = {r["text"]: r for r in series.readings}
    assert by_text["荒川弘"]["hiragana"] == "あらかわひろむ" and by_text["荒川弘"]["of"] == "name"
    assert by_text["石ノ森章太郎"]["hiragana"] == "いしのもりしょうたろう"


def test_published_readings_carry_the_names_readings_after_the_titles():
    series = _series(authors=["手塚治虫", "ちばてつや"])
    published = distinct_readings(series)
    assert published[0]["hiragana"] == "とうだいもりとわたりどり"
    forms = [form for reading in published for form in reading.values()]
    assert "てづかおさむ" in forms
    assert "ちばてつや" not in forms  # a kana name is its own reading: not repeated
