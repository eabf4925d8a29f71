"""Search over the index: spellings, ranking, filters, sorts and paging."""

from __future__ import annotations

import pytest

from manga_app.search.index import SearchIndex
from manga_app.search.query import Query
from manga_app.search.normalize import query_terms
from tests.unit.search.builders import item

SHINGEKI = item("進撃の巨人", "Attack on Titan", slug="shingeki", views=50, genres=("アクション",))
CATALOGUE = [
    SHINGEKI,
    item("進撃", slug="shingeki-short", views=1, genres=("ギャグ",), status="completed", age_days=3),
    item("進撃少女", slug="shingeki-girl", views=900, genres=("アクション", "学園"), age_days=1),
    item("巨人の星", "Kyojin no Hoshi", slug="kyojin-no-hoshi", views=30, genres=("スポーツ",), status="completed", age_days=9),
    item("東京喰種", "トーキョーグール", slug="tokyo-ghoul", views=700, genres=("ホラー", "アクション"), age_days=5),
    item("ワンピース", slug="one-piece", views=10_000, genres=("アクション", "冒険"), age_days=2),
    item("ねこまち日和", "Nekomachi Biyori", slug="nekomachi", views=5, genres=("日常",), status="completed", age_days=20),
]


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    return SearchIndex(CATALOGUE)


def slugs(index: SearchIndex, q: str = "", **filters) -> list[str]:
    result = index.search(Query(q=q, per_page=100, **filters), query_terms(q))
    return [found.slug for found in result.items]


@pytest.mark.parametrize(
    "typed",
    ["しんげき", "シンゲキ", "ｼﾝｹﾞｷ", "shingeki", "進撃", "shingeki no kyojin", "shingekinokyojin", "kyojin",
     "Shingeki No Kyoujin", "しんげきのきょじん", "ＳＨＩＮＧＥＫＩ", "attack on titan"],
)
def test_every_spelling_finds_the_series_titled_shingeki_no_kyojin(index, typed):
    assert "shingeki" in slugs(index, typed)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        # exact title, then title prefix (by popularity), then substring
        ("進撃", ["shingeki-short", "shingeki-girl", "shingeki"]),
        # the alias/reading tier (巨人の星 reads きょじんのほし) beats a mere substring
        ("きょじん", ["kyojin-no-hoshi", "shingeki"]),
        ("巨人", ["kyojin-no-hoshi", "shingeki"]),
        # long vowels and katakana: the alias トーキョーグール and the reading とうきょう
        ("とうきょう", ["tokyo-ghoul"]),
        ("tokyo", ["tokyo-ghoul"]),
        ("ワンピース", ["one-piece"]),
        ("わんぴいす", ["one-piece"]),
        ("進撃 少女", ["shingeki-girl"]),  # every word must match
        ("存在しない", []),
    ],
)
def test_ranking(index, typed, expected):
    assert slugs(index, typed) == expected


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        ({"genres": ("アクション",), "sort": "popular"}, ["one-piece", "shingeki-girl", "tokyo-ghoul", "shingeki"]),
        ({"genres": ("アクション", "学園")}, ["shingeki-girl"]),
        ({"genres": ("アクション",), "exclude": ("ホラー",), "sort": "updated"}, ["shingeki", "shingeki-girl", "one-piece"]),
        ({"status": "completed", "sort": "newest"}, ["shingeki-short", "kyojin-no-hoshi", "nekomachi"]),
        ({"genres": ("ない",)}, []),
    ],
)
def test_filters_without_a_query(index, filters, expected):
    assert slugs(index, **filters) == expected


def test_filters_apply_to_a_query(index):
    assert slugs(index, "進撃", status="completed") == ["shingeki-short"]
    assert slugs(index, "進撃", exclude=("学園",)) == ["shingeki-short", "shingeki"]


def test_title_sort_is_by_reading(index):
    # わんぴーす sorts after ねこまち and とうきょう, by kana, not by code point of the title
    order = slugs(index, sort="title")
    assert order.index("tokyo-ghoul") < order.index("nekomachi") < order.index("one-piece")
    assert order[0] == "kyojin-no-hoshi"  # きょじん


def test_sorts_of_a_query(index):
    assert slugs(index, "進撃", sort="popular") == ["shingeki-girl", "shingeki", "shingeki-short"]
    assert slugs(index, "進撃", sort="updated") == ["shingeki", "shingeki-girl", "shingeki-short"]


@pytest.mark.parametrize(
    ("page", "shown_page", "count"),
    [(1, 1, 3), (2, 2, 3), (3, 3, 1), (99, 3, 1), (0, 1, 3), (-5, 1, 3)],
)
def test_paging_clamps_to_real_pages(index, page, shown_page, count):
    result = index.search(Query(page=page, per_page=3), [])
    assert (result.page, result.pages, result.total, len(result.items)) == (shown_page, 3, 7, count)


def test_an_empty_catalogue_has_one_empty_page():
    result = SearchIndex([]).search(Query(q="x"), ["x"])
    assert (result.total, result.page, result.pages, result.items) == (0, 1, 1, ())


def test_bulk_relevance_order_agrees_with_the_tier_rule(index):
    from manga_app.search import ranking

    for typed in ["進撃", "きょじん", "の", "shingeki", "巨人", "とうきょう", "a", "ん", "ぴ"]:
        terms = query_terms(typed)
        joined = "".join(terms)
        found = index.search(Query(q=typed, per_page=100), terms).items
        idents = [index.items.index(item) for item in found]
        expected = sorted(idents, key=lambda i: (ranking.tier(joined, *index.keys_of(i)), i))
        assert idents == expected, typed


def test_authors_are_searchable_below_every_title_match():
    by_author = item("星の子ども", slug="by-author", views=10_000, authors=("鷹野ミナト",))
    titled = item("鷹野ミナトの冒険", slug="titled", views=1)
    index = SearchIndex([by_author, titled, *CATALOGUE])
    assert slugs(index, "鷹野") == ["titled", "by-author"]  # the far more popular author match comes last
    assert slugs(index, "たかの") == ["titled"]  # author names are matched as written
    assert slugs(index, "ミナト 星") == ["by-author"]  # words may match author and title


def test_an_author_written_in_latin_letters_is_found_by_any_part_of_the_name():
    # Three letters or more of a Latin name found nothing: its grams were never indexed for authors.
    clamp = item("星の話", slug="by-clamp", authors=("CLAMP",))
    oda = item("海の話", slug="by-oda", authors=("Oda Eiichiro",))
    index = SearchIndex([clamp, oda, *CATALOGUE])
    for typed, slug in (("clamp", "by-clamp"), ("cla", "by-clamp"), ("Clamp", "by-clamp"), ("oda", "by-oda"),
                        ("eiichiro", "by-oda"), ("oda eiichiro", "by-oda")):
        assert slugs(index, typed) == [slug], typed


def test_kana_typed_for_some_kanji_still_finds_the_title(index):
    assert slugs(index, "しんげきの巨人") == ["shingeki"]
    assert slugs(index, "きょじんの星") == ["kyojin-no-hoshi"]


def test_an_exact_reading_ranks_with_exact_titles():
    series = [item("巨人", slug="kyojin", views=1), item("きょじんたち", slug="kyojintachi", views=900)]
    assert slugs(SearchIndex(series), "きょじん") == ["kyojin", "kyojintachi"]
