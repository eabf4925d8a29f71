"""The index against a plain scan, on a catalogue big enough that common
characters are held as bitsets: every query, filter, sort and page must give
exactly what checking every series one by one gives."""

from __future__ import annotations

import random
import pytest

from manga_app.core import gojuon
from manga_app.search import ranking
from manga_app.search.index import SearchIndex
from manga_app.search.query import Query
from manga_app.search.normalize import fold, query_terms, script_runs, term_variants
from manga_app.search.paging import clamp_page, page_count
from tests.unit.search.builders import item

WORDS = ["進撃", "巨人", "星", "街", "魔王", "王国", "の", "と", "勇者", "猫", "東京", "ラーメン", "海", "いちご", "ひめ",
         "NOTE", "Dr."]  # Latin words in kana and kanji titles: "note魔王" is one key of both scripts
GENRES = ["アクション", "日常", "恋愛", "SF"]
SIZE = 3_000


def catalogue() -> list:
    rnd = random.Random(11)
    series = []
    for number in range(SIZE):
        title = "".join(rnd.sample(WORDS, rnd.randint(1, 3)))
        series.append(item(title, f"alias {number % 7}", slug=f"s{number}", views=rnd.randint(0, 50),
                           genres=tuple(rnd.sample(GENRES, rnd.randint(0, 2))), status=rnd.choice(("ongoing", "completed")),
                           age_days=rnd.randint(0, 400), authors=(_author(number, rnd),)))
    return series


def _author(number: int, rnd: random.Random) -> str:
    """Mostly Japanese names; every fourth series by a name in Latin letters."""
    if number % 4 == 0:
        return ("CLAMP", "Oda Eiichiro", "Boichi")[number % 3]
    return f"作者{rnd.choice('あいうえお')}{number % 13}"


@pytest.fixture(scope="module")
def built():
    series = catalogue()
    return series, SearchIndex(series)


_KEYS: dict[str, tuple] = {}


def _keys(s):
    if s.slug not in _KEYS:
        title = fold(s.title)
        others = [k for k in dict.fromkeys(map(fold, (*s.alt_titles, *s.readings))) if k and k != title]
        kana = [k for k in map(fold, s.readings) if k and not k.isascii()]
        _KEYS[s.slug] = (title, others, [fold(a) for a in s.authors], kana[0] if kana else title)
    return _KEYS[s.slug]


def reference(series: list, query: Query, terms: list[str]) -> tuple[list[str], int, str]:
    ranked = sorted(series, key=lambda s: (-s.views, s.title))
    sort = ranking.effective_sort(query.sort, bool(terms))

    keys = _keys

    def has(haystacks, term):
        return any(v in h for v in term_variants(term) for h in haystacks)

    def found(words):
        hits = []
        for s in ranked:
            title, others, authors, _ = keys(s)
            in_keys = all(has([title, *others], w) for w in words)
            if in_keys or all(has([title, *others], w) or has(authors, w) for w in words):
                hits.append((s, in_keys))
        return hits

    hits = found(terms) if terms else [(s, True) for s in ranked]
    if terms and not hits and any(len(script_runs(t)) > 1 for t in terms):
        hits = found(list(dict.fromkeys(r for t in terms for r in script_runs(t))))
    hits = [(s, k) for s, k in hits if set(query.genres) <= set(s.genres) and not set(query.exclude) & set(s.genres)
            and (not query.status or s.status == query.status)]
    position = {id(s): n for n, s in enumerate(ranked)}
    if sort == ranking.RELEVANCE:
        joined = "".join(terms)
        hits.sort(key=lambda h: (ranking.tier(joined, keys(h[0])[0], keys(h[0])[1], author_only=not h[1]), position[id(h[0])]))
    elif sort == ranking.UPDATED:
        hits.sort(key=lambda h: (-h[0].updated_at.timestamp(), position[id(h[0])]))
    elif sort == ranking.NEWEST:
        hits.sort(key=lambda h: (-h[0].created_at.timestamp(), position[id(h[0])]))
    elif sort == ranking.TITLE:
        hits.sort(key=lambda h: (gojuon.collation_key(keys(h[0])[3]), position[id(h[0])]))
    pages = page_count(len(hits), query.per_page)
    page = clamp_page(query.page, pages)
    start = (page - 1) * query.per_page
    return [s.slug for s, _ in hits[start : start + query.per_page]], len(hits), sort


def _page(everything: tuple[list[str], int, str], page: int, per_page: int = 24) -> tuple[list[str], int, str]:
    slugs, total, sort = everything
    start = (clamp_page(page, page_count(total, per_page)) - 1) * per_page
    return slugs[start : start + per_page], total, sort


QUERIES = ["", "の", "o", "a", "お", "う", "い", "ま", "王", "おう", "おうこく", "オーコク", "まおう", "しんげき", "shingeki",
           "kyojin", "とうきょう", "tokyo", "らーめん", "ramen", "いちご", "ichigo", "作者", "作者あ", "あ1", "alias 3",
           "しんげきの巨人", "星 の", "ぬぬぬ", "ねこ まおう", "cla", "clamp", "oda", "eiichiro", "boichi", "ichi", "oda 王", "not", "note", "dr", "dr.", "note 王"]


@pytest.mark.parametrize("typed", QUERIES)
def test_every_sort_and_page_agrees_with_a_plain_scan(built, typed):
    series, index = built
    terms = query_terms(typed)
    rnd = random.Random(typed)
    for sort in ranking.SORT_LABELS:
        expected = reference(series, Query(q=typed, sort=sort, per_page=SIZE), terms)
        for page in (1, 2, rnd.randint(3, 40), 10_000):
            query = Query(q=typed, sort=sort, page=page, per_page=24)
            result = index.search(query, terms)
            slugs, total, used = _page(expected, page)
            assert ([s.slug for s in result.items], result.total, result.sort) == (slugs, total, used), (sort, page)


@pytest.mark.parametrize(
    "filters",
    [{"genres": ("アクション",)}, {"genres": ("アクション", "日常")}, {"exclude": ("恋愛",)}, {"status": "completed"},
     {"genres": ("SF",), "exclude": ("日常",), "status": "ongoing"}],
)
@pytest.mark.parametrize("typed", ["", "の", "まおう", "作者", "ichigo"])
def test_filters_agree_with_a_plain_scan(built, typed, filters):
    series, index = built
    terms = query_terms(typed)
    for sort in ("", ranking.UPDATED, ranking.TITLE):
        for page in (1, 3, 10_000):
            query = Query(q=typed, sort=sort, page=page, per_page=24, **filters)
            result = index.search(query, terms)
            slugs, total, _ = reference(series, query, terms)
            assert ([s.slug for s in result.items], result.total) == (slugs, total), (sort, page)


def test_the_reference_catalogue_uses_bitsets(built):
    _, index = built
    assert isinstance(index.grams["の"], int), "common characters must be bitsets for this test to mean anything"
