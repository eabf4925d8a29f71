"""The search URL parsed strictly, and paging arithmetic."""

from __future__ import annotations

import pytest

from manga_app.core import routes
from manga_app.search.paging import MAX_PAGE, clamp_page, page_count, page_window, parse_page
from manga_app.search.params import parse_search_params
from manga_app.search.query import Query

KNOWN = frozenset({"アクション", "日常", "SF"})


@pytest.mark.parametrize(
    ("query_string", "expected"),
    [
        ("", Query()),
        ("q=%E9%80%B2%E6%92%83&sort=popular&page=2", Query(q="進撃", sort="popular", page=2)),
        ("genre=%E6%97%A5%E5%B8%B8&genre=SF&exclude=SF", Query(genres=("日常", "SF"))),
        ("genre=unknown&exclude=%E6%97%A5%E5%B8%B8", Query(exclude=("日常",))),
        ("status=ongoing", Query(status="ongoing")),
        ("status=DROP+TABLE&sort=random", Query()),
        ("page=-3", Query()),
        ("page=abc", Query()),
        ("page=%EF%BC%92", Query()),  # a full-width digit
        ("page=99999999999999999999", Query(page=MAX_PAGE)),
        ("q=%00%1F%E2%80%8B", Query()),  # control and zero-width only
        ("q=%ED%A0%80x", Query(q="x")),  # an encoded surrogate: invalid UTF-8
        ("q=%EF%BD%BC%EF%BE%9D", Query(q="シン")),  # half-width kana
        ("q=" + "a" * 10_000, Query(q="a" * 100)),
        ("q=a&q=b", Query(q="b")),
        ("%%%&&==&q", Query()),
    ],
)
def test_parse_search_params(query_string, expected):
    assert parse_search_params(query_string, known_genres=KNOWN) == expected


def test_too_many_genres_are_cut():
    many = "&".join(f"genre=g{n}" for n in range(50))
    assert len(parse_search_params(many).genres) == 10


def test_params_round_trip_through_the_url_builder():
    params = Query(q="進撃 の", genres=("日常", "SF"), exclude=("アクション",), status="completed", sort="title", page=3)
    url = routes.search_url(**params.url_params())
    assert url.startswith("/search?q=")
    assert parse_search_params(url.split("?", 1)[1], known_genres=KNOWN) == params


def test_a_filter_change_goes_back_to_page_one():
    assert Query(q="x", page=4).with_changes(status="ongoing") == Query(q="x", status="ongoing")


@pytest.mark.parametrize(("total", "pages"), [(0, 1), (1, 1), (24, 1), (25, 2), (-3, 1)])
def test_page_count(total, pages):
    assert page_count(total, 24) == pages


@pytest.mark.parametrize(("page", "pages", "shown"), [(0, 5, 1), (9, 5, 5), (3, 5, 3), (4, 0, 1)])
def test_clamp_page(page, pages, shown):
    assert clamp_page(page, pages) == shown


@pytest.mark.parametrize(("raw", "page"), [(None, 1), ("", 1), ("7", 7), (" 7 ", 7), ("0", 1), ("1e3", 1), ("٣", 1)])
def test_parse_page(raw, page):
    assert parse_page(raw) == page


@pytest.mark.parametrize(
    ("page", "pages", "window"),
    [
        (1, 1, [1]),
        (1, 3, [1, 2, 3]),
        (1, 10, [1, 2, 3, None, 10]),
        (5, 10, [1, None, 3, 4, 5, 6, 7, None, 10]),
        (10, 10, [1, None, 8, 9, 10]),
        (4, 10, [1, 2, 3, 4, 5, 6, None, 10]),
    ],
)
def test_page_window(page, pages, window):
    assert page_window(page, pages) == window
