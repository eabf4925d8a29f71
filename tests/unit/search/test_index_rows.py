"""The site's 五十音 index (/index/{row}) from the search index: every row,
voiced and small kana under their plain row, long vowels, and 五十音順 within
a row (search's タイトル順 is the same order)."""

from __future__ import annotations

import pytest

from manga_app.core import gojuon
from manga_app.search import ranking
from manga_app.search.index import SearchIndex
from manga_app.search.query import Query
from tests.unit.search.builders import item

# (title, the row a Japanese reader files it under); readings come from the
# real generator, so a kanji title is filed by what it is read as.
FILED = [
    ("あおぞら", "あ"), ("ヴァンパイア都市", "あ"), ("ぁぃぅ通信", "あ"),
    ("カメラ少年", "か"), ("ガンダム戦記", "か"), ("銀の匙", "か"),
    ("さくら荘", "さ"), ("ジャングル大帝", "さ"), ("進撃の巨人", "さ"),
    ("たんぽぽ", "た"), ("ダンジョン飯", "た"), ("ヂヂ", "た"), ("ッテ", "た"),
    ("なつやすみ", "な"), ("猫の恩返し", "な"), ("ニンジャ", "な"), ("ぬいぐるみ", "な"), ("ノラガミ", "な"),
    ("はじめの一歩", "は"), ("バクマン", "は"), ("パン屋", "は"), ("ヴィ", "あ"),
    ("まんが道", "ま"), ("耳をすませば", "ま"),
    ("やさい", "や"), ("ゆるキャン", "や"), ("ャッホー", "や"),
    ("ラーメン大好き", "ら"), ("ルパン", "ら"),
    ("わたモテ", "わ"), ("ゎんだ", "わ"), ("ンジャメナ", "わ"),
    ("ONE PIECE", "わ"), ("ＳＰＹ", "英数"), ("3月のライオン", "さ"), ("ＤＲＡＧＯＮ", "英数"), ("★星", "は"), ("X-MEN", "英数"),
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex([item(title, slug=f"s{n}", views=n) for n, (title, _) in enumerate(FILED)])


def row_titles(index: SearchIndex, row: str) -> list[str]:
    return [found.title for found in index.search(Query(row=row, sort=ranking.TITLE, per_page=100), []).items]


@pytest.mark.parametrize("row", gojuon.SITE_ROWS)
def test_every_row_lists_exactly_the_titles_filed_under_it(index, row):
    expected = {title for title, filed in FILED if filed == row}
    assert expected, f"the table has no title for {row}"
    assert set(row_titles(index, row)) == expected


def test_the_rows_are_the_kana_table_then_english_and_numbers():
    assert gojuon.SITE_ROWS == ("あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ", "英数")


def test_row_counts_add_up_to_the_catalogue(index):
    counts = index.row_counts()
    assert counts["な"] == 5 and sum(counts.values()) == len(FILED)


def test_a_row_pages_like_a_genre(index):
    first = index.search(Query(row="な", sort=ranking.TITLE, per_page=2), [])
    last = index.search(Query(row="な", sort=ranking.TITLE, per_page=2, page=3), [])
    assert (first.total, first.pages, len(first.items), len(last.items)) == (5, 3, 2, 1)


@pytest.mark.parametrize(
    ("titles", "order"),
    [
        # voiced kana compare as plain kana first: がっこう before かわ
        (("かわべ", "がっこう"), ["がっこう", "かわべ"]),
        # then the plain one first: かき before がき
        (("がき", "かき"), ["かき", "がき"]),
        # a long vowel is the vowel it lengthens: らあ < らーめ(らあめ) < らい
        (("らいおん", "ラーメン", "らあ"), ["らあ", "ラーメン", "らいおん"]),
        # small kana compare as large: やっと(やつと) after やつあたり
        (("やっと", "やつあたり"), ["やつあたり", "やっと"]),
        # kanji titles by their reading: 猫(ねこ) before のはら
        (("のはら", "猫"), ["猫", "のはら"]),
    ],
)
def test_titles_are_in_gojuon_order(titles, order):
    index = SearchIndex([item(title, slug=f"t{n}") for n, title in enumerate(titles)])
    assert [found.title for found in index.search(Query(sort=ranking.TITLE, per_page=10), []).items] == order


def test_an_unknown_row_filters_nothing_out_of_a_search(index):
    assert index.search(Query(row="が", per_page=100), []).total == len(FILED)
