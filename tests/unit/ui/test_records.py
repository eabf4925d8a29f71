"""Cards, pager links and genre-page URLs the browse pages show."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from manga_app.pages.genre.logic import genre_page_url, parse_genre_query
from manga_app.search.normalize import query_terms
from manga_app.cards.records import Part, card_for, pager_links, phrase_parts
from tests.unit.search.builders import item

NOW = datetime(2026, 1, 1, 12, tzinfo=UTC)


def test_card_shows_latest_chapter_relative_time_and_views():
    series = item("進撃の巨人", "Attack on Titan", slug="shingeki", views=1530)
    card = card_for(series, now=series.updated_at + timedelta(hours=3))
    assert (card.url, card.chapter_label, card.chapter_url, card.updated.text, card.views) == (
        "/manga/shingeki", "第1話", "/shingeki-ch-1", "3時間前", "1.5K",
    )
    assert card.updated.iso == series.updated_at.isoformat()
    assert card.srcset == "/media/c-small.webp 160w, /media/c.webp 320w"
    # Cut where a line may break (after the phrase 進撃の), marked for a <wbr>.
    assert card.parts == [Part("進撃の", wbr=True), Part("巨人")] and card.match_parts == []


def test_a_card_offers_the_avif_covers_beside_the_webp_ones_where_the_catalogue_has_them():
    series = item("進撃の巨人", slug="shingeki")
    webp = replace(series, cover="/media/ab/k-cover320.webp", cover_small="/media/ab/k-cover160.webp")
    assert card_for(webp, now=NOW).avif_srcset == ""
    card = card_for(replace(webp, cover_avif=True), now=NOW)
    assert card.srcset == "/media/ab/k-cover160.webp 160w, /media/ab/k-cover320.webp 320w"
    assert card.avif_srcset == "/media/ab/k-cover160.avif 160w, /media/ab/k-cover320.avif 320w"
    # A cover not named as the media store names them has no AVIF to offer.
    assert card_for(replace(series, cover_avif=True), now=NOW).avif_srcset == ""


@pytest.mark.parametrize(
    ("query", "parts", "match_parts"),
    [
        ("巨人", [Part("進撃の", wbr=True), Part("巨人", True)], []),
        ("撃の巨", [Part("進"), Part("撃の", True, wbr=True), Part("巨", True), Part("人")], []),
        ("titan", [Part("進撃の", wbr=True), Part("巨人")], [Part("Attack on "), Part("Titan", True)]),
        ("kyojin", [Part("進撃の", wbr=True), Part("巨人")], [Part("shingeki no "), Part("kyojin", True)]),
    ],
)
def test_card_marks_the_match_in_the_title_or_else_in_an_alias_or_reading(query, parts, match_parts):
    card = card_for(item("進撃の巨人", "Attack on Titan"), now=NOW, terms=query_terms(query))
    assert (card.parts, card.match_parts) == (parts, match_parts)


def test_pager_links():
    links = pager_links(2, 3, lambda n: f"/x?page={n}")
    assert [(link.label, link.href, link.current) for link in links] == [
        ("‹ 前へ", "/x?page=1", False), ("1", "/x?page=1", False), ("2", "/x?page=2", True),
        ("3", "/x?page=3", False), ("次へ ›", "/x?page=3", False),
    ]
    assert pager_links(1, 1, str) == []
    assert [link.href for link in pager_links(1, 2, str)][0] == ""  # no previous page


@pytest.mark.parametrize(
    ("query", "expected"),
    [("", ("updated", 1)), ("sort=popular&page=3", ("popular", 3)), ("sort=relevance", ("updated", 1)),
     ("sort=%00&page=-4", ("updated", 1)), ("page=9999999999999", ("updated", 100_000))],
)
def test_parse_genre_query(query, expected):
    assert parse_genre_query(query) == expected


def test_genre_page_url_leaves_defaults_out():
    assert genre_page_url("日常") == "/genre/%E6%97%A5%E5%B8%B8"
    assert genre_page_url("日常", "popular", 2) == "/genre/%E6%97%A5%E5%B8%B8?sort=popular&page=2"


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("最後の晩餐はカレーで", [Part("最後の", wbr=True), Part("晩餐は", wbr=True), Part("カレーで")]),
        ("ＳＰＹ×ＦＡＭＩＬＹ", [Part("ＳＰＹ×ＦＡＭＩＬＹ")]),
        ("", [Part("")]),
    ],
)
def test_phrase_parts_mark_where_a_line_may_break(text, parts):
    assert phrase_parts(text) == parts
