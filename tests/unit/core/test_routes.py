"""Table-driven tests for manga_app.core.routes: the layout rule, the matcher,
the reader-path parser, chapter numbers and the URL builders."""

from __future__ import annotations

import json
import re
import subprocess
from decimal import Decimal
from urllib.parse import parse_qsl, urlsplit

import pytest

from manga_app.core import routes
from manga_app.core.routes import (
    PageKind,
    RouteMatch,
    chapter_url,
    format_chapter_number,
    genre_url,
    manga_url,
    match,
    parse_reader_path,
    search_url,
)
from manga_app.ssr.renderer import node_binary

HORROR = "ホラー"
HORROR_ENCODED = "%E3%83%9B%E3%83%A9%E3%83%BC"


def cases(table):
    """pytest.param for every (id, *values) row of a table."""
    return [pytest.param(*row[1:], id=row[0]) for row in table]


# --------------------------------------------------------------------------
# The spec's layout rule: a path naming a chapter is the reader's
# --------------------------------------------------------------------------

READER_LAYOUT_CASES = [
    ("chapter-number", "/abc-ch-12", True),
    ("chapter-number-and-slug", "/abc-ch-12-the-title", True),
    ("decimal-chapter", "/abc-ch-10.5", True),
    ("decimal-chapter-and-slug", "/abc-ch-10.5-extra", True),
    ("multi-word-manga-slug", "/one-piece-ch-1100", True),
    ("trailing-slash", "/abc-ch-12/", True),
    ("query-string", "/abc-ch-12?page=3", True),
    ("slug-and-query-string", "/abc-ch-12-the-title?page=3&zoom=1", True),
    ("fragment", "/abc-ch-12#page-4", True),
    ("marker-without-digits", "/abc-ch-", False),
    ("marker-with-letters", "/abc-ch-one", False),
    ("chapter-spelled-out", "/abc-chapter-1", False),
    ("digits-glued-to-letters", "/abc-ch-12abc", False),
    ("manga-page", "/manga/abc", False),
    ("root", "/", False),
    ("genres", "/genres", False),
    ("marker-only-in-query", "/search?q=abc-ch-12", False),
    ("marker-only-in-fragment", "/search#abc-ch-12", False),
    ("marker-in-an-earlier-segment", "/abc-ch-12/comments", False),
]


@pytest.mark.parametrize(("path", "expected"), cases(READER_LAYOUT_CASES))
def test_a_path_uses_the_reader_layout_only_when_it_names_a_chapter(path, expected):
    assert uses_reader_layout(path) is expected


def uses_reader_layout(path: str) -> bool:
    found = match(path)
    return found is not None and found.kind is PageKind.READER


# --------------------------------------------------------------------------
# match
# --------------------------------------------------------------------------

MATCH_CASES = [
    # static pages
    ("home", "/", RouteMatch(PageKind.HOME)),
    ("home-empty-path", "", RouteMatch(PageKind.HOME)),
    ("home-with-query", "/?utm_source=x", RouteMatch(PageKind.HOME)),
    ("genres", "/genres", RouteMatch(PageKind.GENRES)),
    ("genres-trailing-slash", "/genres/", RouteMatch(PageKind.GENRES)),
    ("search", "/search", RouteMatch(PageKind.SEARCH)),
    ("search-with-query", "/search?q=abc&genre=x", RouteMatch(PageKind.SEARCH)),
    ("search-trailing-slash", "/search/", RouteMatch(PageKind.SEARCH)),
    ("ranking", "/ranking?period=week&genre=SF", RouteMatch(PageKind.RANKING)),
    ("calendar", "/calendar?day=mon", RouteMatch(PageKind.CALENDAR)),
    # the operator's console (a 404 to readers: that is the page's own answer)
    ("admin", "/admin", RouteMatch(PageKind.ADMIN)),
    ("admin-audit", "/admin/audit/", RouteMatch(PageKind.ADMIN_AUDIT)),
    ("admin-jobs", "/admin/jobs", RouteMatch(PageKind.ADMIN_JOBS)),
    ("admin-upload", "/admin/upload", RouteMatch(PageKind.ADMIN_UPLOAD)),
    ("admin-series", "/admin/series/shingeki-no-kyojin", RouteMatch(PageKind.ADMIN_SERIES, {"slug": "shingeki-no-kyojin"})),
    ("admin-series-not-a-slug", "/admin/series/進撃", None),
    ("admin-unknown", "/admin/settings", None),
    ("library", "/library", RouteMatch(PageKind.LIBRARY)),
    ("notifications", "/notifications", RouteMatch(PageKind.NOTIFICATIONS)),
    ("library-trailing-slash", "/library/", RouteMatch(PageKind.LIBRARY)),
    ("history", "/history", RouteMatch(PageKind.HISTORY)),
    ("history-trailing-slash", "/history/", RouteMatch(PageKind.HISTORY)),
    ("offline", "/offline", RouteMatch(PageKind.OFFLINE)),
    ("account", "/account", RouteMatch(PageKind.ACCOUNT)),
    # manga
    ("manga", "/manga/abc", RouteMatch(PageKind.MANGA, {"slug": "abc"})),
    ("manga-hyphenated", "/manga/one-piece-2", RouteMatch(PageKind.MANGA, {"slug": "one-piece-2"})),
    ("manga-trailing-slash", "/manga/abc/", RouteMatch(PageKind.MANGA, {"slug": "abc"})),
    ("manga-with-query", "/manga/abc?tab=chapters", RouteMatch(PageKind.MANGA, {"slug": "abc"})),
    # genre
    ("genre-ascii", "/genre/action", RouteMatch(PageKind.GENRE, {"name": "action"})),
    ("genre-japanese-encoded", f"/genre/{HORROR_ENCODED}", RouteMatch(PageKind.GENRE, {"name": HORROR})),
    ("genre-japanese-raw", f"/genre/{HORROR}", RouteMatch(PageKind.GENRE, {"name": HORROR})),
    ("genre-trailing-slash", f"/genre/{HORROR_ENCODED}/", RouteMatch(PageKind.GENRE, {"name": HORROR})),
    ("genre-encoded-slash", "/genre/SF%2F%E3%83%9B", RouteMatch(PageKind.GENRE, {"name": "SF/ホ"})),
    ("author-japanese-encoded", routes.author_url("山田 花子"), RouteMatch(PageKind.AUTHOR, {"name": "山田 花子"})),
    ("author-encoded-slash", "/author/A%2FB", RouteMatch(PageKind.AUTHOR, {"name": "A/B"})),
    ("tag-japanese-raw", "/tag/お仕事", RouteMatch(PageKind.TAG, {"name": "お仕事"})),
    ("author-blank-name", "/author/%20", None),
    ("tag-nested", "/tag/a/b", None),
    (
        "genre-encoded-space",
        "/genre/slice%20of%20life",
        RouteMatch(PageKind.GENRE, {"name": "slice of life"}),
    ),
    ("genre-padded-name-stripped", "/genre/%20abc%20", RouteMatch(PageKind.GENRE, {"name": "abc"})),
    # 五十音 index: any segment is the row's page (an unknown row is its 404)
    ("kana-row-encoded", "/index/%E3%81%AA", RouteMatch(PageKind.KANA_ROW, {"row": "な"})),
    ("kana-row-raw", "/index/英数", RouteMatch(PageKind.KANA_ROW, {"row": "英数"})),
    ("kana-index-is-no-page", "/index", None),
    # reader
    (
        "reader",
        "/abc-ch-12",
        RouteMatch(PageKind.READER, {"slug": "abc", "number": "12", "chapter_slug": ""}),
    ),
    (
        "reader-decimal-and-slug",
        "/one-piece-ch-10.5-the-title",
        RouteMatch(PageKind.READER, {"slug": "one-piece", "number": "10.5", "chapter_slug": "the-title"}),
    ),
    (
        "reader-trailing-slash",
        "/abc-ch-3/",
        RouteMatch(PageKind.READER, {"slug": "abc", "number": "3", "chapter_slug": ""}),
    ),
    (
        "reader-with-query",
        "/abc-ch-3?page=2",
        RouteMatch(PageKind.READER, {"slug": "abc", "number": "3", "chapter_slug": ""}),
    ),
    # not found
    ("unknown-single-segment", "/no-such-thing", None),
    ("unknown-nested", "/foo/bar", None),
    ("manga-without-slug", "/manga", None),
    ("manga-with-empty-slug", "/manga/", None),
    ("manga-nested", "/manga/abc/extra", None),
    ("manga-uppercase-slug", "/manga/ABC", None),
    ("manga-mixed-case-slug", "/manga/One-Piece", None),
    ("manga-underscore-slug", "/manga/one_piece", None),
    ("manga-double-hyphen", "/manga/one--piece", None),
    ("genre-empty", "/genre/", None),
    ("genre-without-name", "/genre", None),
    ("genre-blank-name", "/genre/%20%20", None),
    ("genre-nested", "/genre/a/b", None),
    ("static-page-uppercase", "/Genres", None),
    ("static-page-nested", "/genres/extra", None),
    ("reader-uppercase-slug", "/ABC-ch-1", None),
    ("reader-uppercase-chapter-slug", "/abc-ch-1-The-Title", None),
    ("reader-marker-without-number", "/abc-ch-", None),
    ("reader-without-manga-slug", "/-ch-1", None),
    ("reader-chapter-spelled-out", "/abc-chapter-1", None),
    ("reader-nested", "/abc/def-ch-1", None),
]


@pytest.mark.parametrize(("path", "expected"), cases(MATCH_CASES))
def test_a_path_matches_its_page_or_none(path, expected):
    assert match(path) == expected


def test_every_page_kind_is_reachable_by_some_path():
    reached = {found.kind for _, _, found in MATCH_CASES if found is not None}
    assert reached == set(PageKind)


# --------------------------------------------------------------------------
# parse_reader_path
# --------------------------------------------------------------------------

PARSE_READER_CASES = [
    ("plain", "/abc-ch-12", {"slug": "abc", "number": "12", "chapter_slug": ""}),
    ("leading-zeros", "/abc-ch-010", {"slug": "abc", "number": "10", "chapter_slug": ""}),
    ("all-zeros", "/abc-ch-000", {"slug": "abc", "number": "0", "chapter_slug": ""}),
    ("ten-is-not-scientific", "/abc-ch-10", {"slug": "abc", "number": "10", "chapter_slug": ""}),
    ("hundred-is-not-scientific", "/abc-ch-100", {"slug": "abc", "number": "100", "chapter_slug": ""}),
    ("trailing-decimal-zero", "/abc-ch-10.50", {"slug": "abc", "number": "10.5", "chapter_slug": ""}),
    ("whole-decimal", "/abc-ch-12.0", {"slug": "abc", "number": "12", "chapter_slug": ""}),
    ("leading-zero-decimal", "/abc-ch-0.5", {"slug": "abc", "number": "0.5", "chapter_slug": ""}),
    (
        "chapter-slug",
        "/abc-ch-3-the-title",
        {"slug": "abc", "number": "3", "chapter_slug": "the-title"},
    ),
    (
        "hyphenated-manga-slug",
        "/one-piece-2-ch-1100-wano",
        {"slug": "one-piece-2", "number": "1100", "chapter_slug": "wano"},
    ),
    (
        "digits-in-slugs",
        "/abc123-ch-4-part-2",
        {"slug": "abc123", "number": "4", "chapter_slug": "part-2"},
    ),
    ("query-ignored", "/abc-ch-3?page=2", {"slug": "abc", "number": "3", "chapter_slug": ""}),
    ("trailing-slash", "/abc-ch-3/", {"slug": "abc", "number": "3", "chapter_slug": ""}),
    ("not-a-chapter", "/manga/abc", None),
    ("no-number", "/abc-ch-", None),
    ("negative-number", "/abc-ch--1", None),
    ("dot-without-decimals", "/abc-ch-1.", None),
    ("two-dots", "/abc-ch-1.2.3", None),
    ("uppercase", "/Abc-ch-1", None),
    ("no-leading-slash", "abc-ch-1", None),
    ("empty-chapter-slug", "/abc-ch-1-", None),
]


@pytest.mark.parametrize(("path", "expected"), cases(PARSE_READER_CASES))
def test_a_reader_path_splits_into_slug_normalised_number_and_chapter_slug(path, expected):
    assert parse_reader_path(path) == expected


# --------------------------------------------------------------------------
# format_chapter_number
# --------------------------------------------------------------------------

FORMAT_CASES = [
    ("int", 12, "12"),
    ("int-zero", 0, "0"),
    ("int-ten", 10, "10"),
    ("int-large", 1100, "1100"),
    ("str", "12", "12"),
    ("str-leading-zeros", "010", "10"),
    ("str-trailing-zeros", "10.50", "10.5"),
    ("str-whole-decimal", "12.00", "12"),
    ("decimal", Decimal("10.5"), "10.5"),
    ("decimal-trailing-zeros", Decimal("10.50"), "10.5"),
    ("decimal-whole", Decimal("12.0"), "12"),
    ("decimal-hundred", Decimal("100"), "100"),
    ("decimal-exponent", Decimal("1E+2"), "100"),
    ("float-half", 10.5, "10.5"),
    ("float-whole", 12.0, "12"),
    ("float-tenth", 0.1, "0.1"),
    ("float-two-places", 3.25, "3.25"),
]


@pytest.mark.parametrize(("number", "expected"), cases(FORMAT_CASES))
def test_a_chapter_number_is_written_in_its_shortest_plain_form(number, expected):
    assert format_chapter_number(number) == expected


FORMAT_REFUSED_CASES = [
    ("negative-int", -1),
    ("negative-str", "-1"),
    ("negative-decimal", Decimal("-0.5")),
    ("negative-float", -2.5),
    ("garbage", "abc"),
    ("empty", ""),
    ("none", None),
    ("bool", True),
    ("nan-str", "nan"),
    ("nan-float", float("nan")),
    ("infinity-str", "Infinity"),
    ("infinity-float", float("inf")),
    ("infinity-decimal", Decimal("Infinity")),
    ("two-dots", "1.2.3"),
]


@pytest.mark.parametrize("number", cases(FORMAT_REFUSED_CASES))
def test_anything_but_a_finite_non_negative_number_is_refused(number):
    with pytest.raises(ValueError):
        format_chapter_number(number)


NEGATIVE_ZERO_CASES = [
    ("negative-zero-str", "-0"),
    ("negative-zero-decimal", Decimal("-0.0")),
    ("negative-zero-float", -0.0),
]


@pytest.mark.parametrize("number", cases(NEGATIVE_ZERO_CASES))
def test_negative_zero_is_either_refused_or_written_as_a_url_number(number):
    # Whatever is accepted must be a number the reader path can parse back.
    try:
        text = format_chapter_number(number)
    except ValueError:
        return
    assert re.fullmatch(r"\d+(?:\.\d+)?", text), f"{number!r} formatted as {text!r}"


# --------------------------------------------------------------------------
# URL builders
# --------------------------------------------------------------------------

MANGA_URL_CASES = [
    ("simple", "abc", "/manga/abc"),
    ("hyphenated", "one-piece", "/manga/one-piece"),
]


@pytest.mark.parametrize(("slug", "expected"), cases(MANGA_URL_CASES))
def test_the_manga_url_is_manga_slash_slug(slug, expected):
    assert manga_url(slug) == expected


CHAPTER_URL_CASES = [
    ("int", ("abc", 12), "/abc-ch-12"),
    ("str-leading-zeros", ("abc", "010"), "/abc-ch-10"),
    ("decimal", ("abc", Decimal("10.50")), "/abc-ch-10.5"),
    ("float", ("abc", 10.5), "/abc-ch-10.5"),
    ("whole-float", ("abc", 12.0), "/abc-ch-12"),
    ("chapter-slug", ("abc", 3, "the-title"), "/abc-ch-3-the-title"),
    ("decimal-and-chapter-slug", ("one-piece", Decimal("1.5"), "extra"), "/one-piece-ch-1.5-extra"),
    ("empty-chapter-slug", ("abc", 3, ""), "/abc-ch-3"),
]


@pytest.mark.parametrize(("args", "expected"), cases(CHAPTER_URL_CASES))
def test_the_chapter_url_joins_slug_number_and_chapter_slug(args, expected):
    assert chapter_url(*args) == expected


def test_a_chapter_url_refuses_a_negative_number():
    with pytest.raises(ValueError):
        chapter_url("abc", -1)


GENRE_URL_CASES = [
    ("ascii", "action", "/genre/action"),
    ("japanese", HORROR, f"/genre/{HORROR_ENCODED}"),
    ("space", "slice of life", "/genre/slice%20of%20life"),
    ("slash", "SF/ファンタジー", "/genre/SF%2F%E3%83%95%E3%82%A1%E3%83%B3%E3%82%BF%E3%82%B8%E3%83%BC"),
    ("question-mark-and-hash", "a?b#c", "/genre/a%3Fb%23c"),
    ("percent", "100%", "/genre/100%25"),
]


@pytest.mark.parametrize(("name", "expected"), cases(GENRE_URL_CASES))
def test_the_genre_url_percent_encodes_the_name(name, expected):
    assert genre_url(name) == expected


SEARCH_URL_CASES = [
    ("no-filters", {}, "/search"),
    ("all-empty", {"q": "", "genre": [], "status": None}, "/search"),
    ("query", {"q": "abc"}, "/search?q=abc"),
    ("japanese-query", {"q": "ワンピース"}, "/search?q=%E3%83%AF%E3%83%B3%E3%83%94%E3%83%BC%E3%82%B9"),
    ("space-in-query", {"q": "one piece"}, "/search?q=one+piece"),
    ("ampersand-in-query", {"q": "a&b=c"}, "/search?q=a%26b%3Dc"),
    ("fixed-order", {"page": 2, "sort": "new", "q": "x"}, "/search?q=x&sort=new&page=2"),
    (
        "every-filter-reordered",
        {"page": 3, "sort": "popular", "status": "ongoing", "exclude": "gore", "genre": "action", "q": "x"},
        "/search?q=x&genre=action&exclude=gore&status=ongoing&sort=popular&page=3",
    ),
    ("empty-dropped", {"q": "", "genre": "action"}, "/search?genre=action"),
    ("none-dropped", {"q": None, "sort": "new"}, "/search?sort=new"),
    ("empty-list-dropped", {"genre": [], "page": 2}, "/search?page=2"),
    ("list-repeated", {"genre": ["action", "horror"]}, "/search?genre=action&genre=horror"),
    (
        "two-lists",
        {"exclude": ["b", "a"], "genre": ["c", "d"]},
        "/search?genre=c&genre=d&exclude=b&exclude=a",
    ),
    ("int-page", {"page": 10}, "/search?page=10"),
    ("unknown-filter-ignored", {"foo": "bar"}, "/search"),
]


@pytest.mark.parametrize(("params", "expected"), cases(SEARCH_URL_CASES))
def test_the_search_url_keeps_set_filters_in_a_stable_order(params, expected):
    assert search_url(**params) == expected


def test_a_search_url_query_decodes_back_to_its_filters():
    url = search_url(q="呪術 廻戦&x", genre=[HORROR, "SF/ファンタジー"], page=2)
    parts = urlsplit(url)
    assert parts.path == routes.SEARCH
    assert parse_qsl(parts.query) == [
        ("q", "呪術 廻戦&x"),
        ("genre", HORROR),
        ("genre", "SF/ファンタジー"),
        ("page", "2"),
    ]


# --------------------------------------------------------------------------
# Round trips: every URL the builders make is matched back to its page
# --------------------------------------------------------------------------

CHAPTER_ROUND_TRIP_CASES = [
    ("int", "abc", 12, "", "12"),
    ("zero", "abc", 0, "", "0"),
    ("ten", "abc", 10, "", "10"),
    ("decimal", "abc", Decimal("10.50"), "", "10.5"),
    ("float", "abc", 10.5, "", "10.5"),
    ("str-leading-zeros", "abc", "007", "", "7"),
    ("chapter-slug", "abc", 3, "the-title", "3"),
    ("everything", "one-piece-2", Decimal("1100.25"), "wano-arc-1", "1100.25"),
]


@pytest.mark.parametrize(("slug", "number", "chapter_slug", "number_text"), cases(CHAPTER_ROUND_TRIP_CASES))
def test_a_chapter_url_matches_the_reader_with_the_same_params(slug, number, chapter_slug, number_text):
    url = chapter_url(slug, number, chapter_slug)
    assert match(url) == RouteMatch(
        PageKind.READER, {"slug": slug, "number": number_text, "chapter_slug": chapter_slug}
    )
    assert uses_reader_layout(url)


GENRE_ROUND_TRIP_CASES = [
    ("ascii", "action"),
    ("japanese", HORROR),
    ("slash", "SF/ファンタジー"),
    ("query-characters", "a?b#c&d"),
    ("percent", "100%"),
]


@pytest.mark.parametrize("name", cases(GENRE_ROUND_TRIP_CASES))
def test_a_genre_url_matches_the_genre_page_with_the_same_name(name):
    assert match(genre_url(name)) == RouteMatch(PageKind.GENRE, {"name": name})


@pytest.mark.parametrize("slug", ["abc", "one-piece", "a1-b2-c3"])
def test_a_manga_url_matches_the_manga_page_with_the_same_slug(slug):
    url = manga_url(slug)
    assert match(url) == RouteMatch(PageKind.MANGA, {"slug": slug})
    assert not uses_reader_layout(url)


@pytest.mark.parametrize(
    ("kind", "path"),
    [
        pytest.param(PageKind.HOME, routes.HOME, id="home"),
        pytest.param(PageKind.GENRES, routes.GENRES, id="genres"),
        pytest.param(PageKind.SEARCH, routes.SEARCH, id="search"),
        pytest.param(PageKind.LIBRARY, routes.LIBRARY, id="library"),
        pytest.param(PageKind.HISTORY, routes.HISTORY, id="history"),
        pytest.param(PageKind.OFFLINE, routes.OFFLINE, id="offline"),
        pytest.param(PageKind.ACCOUNT, routes.ACCOUNT, id="account"),
    ],
)
def test_each_static_path_constant_matches_its_page(kind, path):
    assert match(path) == RouteMatch(kind)
    assert not uses_reader_layout(path)


def test_a_search_url_matches_the_search_page():
    assert match(search_url(q="abc", genre=["x", "y"], page=2)) == RouteMatch(PageKind.SEARCH)


# --- Hostile paths ------------------------------------------------------------
# A path of thousands of "-ch-" markers once took the matcher seconds (the
# series slug was matched lazily, so every marker was tried to the end).

HOSTILE_PATHS = [
    pytest.param("/" + "a-ch-1-" * 2000 + "/", id="many-chapter-markers"),
    pytest.param("/manga/" + "a" * 600, id="long-manga-slug"),
    pytest.param("/" + "a" * 600 + "-ch-1", id="long-series-slug"),
]


@pytest.mark.parametrize("path", HOSTILE_PATHS)
def test_a_path_longer_than_any_the_site_builds_is_no_page(path):
    assert len(path) > routes.MAX_PATH_LENGTH
    assert routes.match(path) is None
    assert routes.parse_reader_path(path) is None
    assert uses_reader_layout(path) is False


def test_the_longest_chapter_url_the_site_builds_still_matches():
    slug, chapter_slug = "s" * 80, "c" * 80  # naming.slugify caps slugs at 80
    path = routes.chapter_url(slug, "12345.5", chapter_slug)
    assert routes.match(path) == routes.RouteMatch(
        routes.PageKind.READER, {"slug": slug, "number": "12345.5", "chapter_slug": chapter_slug}
    )


def test_the_reader_path_splits_at_the_chapter_marker_a_series_slug_cannot_contain():
    # slugify writes "-ch-2" inside a title as "-ch2", so the first real marker wins.
    assert routes.parse_reader_path("/retsu-ch2-kai-ch-3-owari") == {
        "slug": "retsu-ch2-kai",
        "number": "3",
        "chapter_slug": "owari",
    }


def test_a_volume_is_read_at_the_chapter_pattern_with_the_vol_slug_and_its_own_key() -> None:
    volume_key = routes.VOLUME_KEY + 3
    assert routes.chapter_url("abc", volume_key) == "/abc-ch-3-vol"
    assert routes.parse_reader_path("/abc-ch-3-vol") == {"slug": "abc", "number": "1000003", "chapter_slug": "vol"}
    assert routes.parse_reader_path("/abc-ch-3") == {"slug": "abc", "number": "3", "chapter_slug": ""}
    assert routes.parse_reader_path("/abc-ch-3-volcano")["number"] == "3"
    assert routes.parse_reader_path("/abc-ch-1000003") is None
    assert (routes.unit_label(volume_key), routes.unit_label("12"), routes.unit_label("10.5")) == ("第3巻", "第12話", "第10.5話")


def test_a_unit_is_published_by_its_kind_and_number_and_read_back_to_its_key() -> None:
    volume_key = routes.VOLUME_KEY + 3
    assert routes.unit_json(volume_key) == {"kind": "volume", "number": 3, "label": "第3巻"}
    assert routes.unit_json("10.5") == {"kind": "chapter", "number": 10.5, "label": "第10.5話"}
    assert routes.unit_key("volume", 3) == volume_key and routes.unit_key("chapter", 10.5) == Decimal("10.5")
    for kind, number in (("issue", 3), ("volume", 1_000_003), ("chapter", -1), (None, 3)):
        with pytest.raises(ValueError):
            routes.unit_key(kind, number)
    assert (routes.unit_segment(volume_key), routes.unit_segment("12")) == ("3-vol", "12")
    assert [routes.parse_unit_segment(s) for s in ("3-vol", "12", "10.5", "1000003", "3-volcano", "")] == [
        "1000003", "12", "10.5", None, None, None]


# --- The same rule in the browser ---------------------------------------------
# The page's stylesheet and scroll restoration are chosen in the browser by
# the reader's rule (routes.reader_path_pattern), as a JavaScript RegExp.


def test_the_browser_reads_a_pathname_as_a_reader_page_exactly_when_the_server_does():
    rows = [(case[1], case[2]) for case in READER_LAYOUT_CASES]
    rows += [(param.values[0], False) for param in HOSTILE_PATHS]
    rows += [("/abc-ch-3-vol", True), ("/no-such-page", False), ("/abc-ch-1-" + "c" * 600, False)]
    pathnames = [urlsplit(path).path for path, _ in rows]
    script = ("const [source, paths] = JSON.parse(process.argv[1]);"
              "process.stdout.write(JSON.stringify(paths.map((path) => new RegExp(source).test(path))));")
    answer = subprocess.run([node_binary(), "-e", script, json.dumps([routes.reader_path_pattern(), pathnames])],
                            capture_output=True, text=True, check=True, timeout=30)
    assert json.loads(answer.stdout) == [uses_reader_layout(path) for path in pathnames]
    assert [expected for _, expected in rows] == [uses_reader_layout(path) for path, _ in rows]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((), "/ranking"),
        (("week",), "/ranking?period=week"),
        (("", "日常", 2), "/ranking?genre=%E6%97%A5%E5%B8%B8&page=2"),
        (("all", "SF", 1), "/ranking?period=all&genre=SF"),
    ],
)
def test_ranking_url(args, expected):
    assert routes.ranking_url(*args) == expected


@pytest.mark.parametrize(("args", "expected"), [((), "/calendar"), (("mon",), "/calendar?day=mon"),
                                                (("irregular", 3), "/calendar?day=irregular&page=3")])
def test_calendar_url(args, expected):
    assert routes.calendar_url(*args) == expected
