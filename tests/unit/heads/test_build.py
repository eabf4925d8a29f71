"""Table-driven tests for manga_app.heads.build: the search-engine data of each page."""

from __future__ import annotations

import asyncio
import re

import pytest

from manga_app.heads import build, resolve
from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app.core.config import DEFAULT_SITE_NAMES
from manga_app.core.routes import PageKind, RouteMatch
from manga_app.heads.seo import PageHead

ORIGIN = "https://manga.example.jp"
SITE_NAMES = ("漫画ひろば", "まんがひろば", "Manga Hiroba")
SITE = SITE_NAMES[0]
# Hiragana, katakana or kanji.
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def static(kind: PageKind, *, site_names=SITE_NAMES, origin=ORIGIN) -> PageHead:
    return build.static_head(kind, site_names=site_names, origin=origin)


# --------------------------------------------------------------------------
# default title
# --------------------------------------------------------------------------

DEFAULT_TITLE_CASES = [
    pytest.param(("漫画ひろば",), "漫画ひろば", id="one-name"),
    pytest.param(("漫画ひろば", "Manga Hiroba"), "漫画ひろば | Manga Hiroba", id="two-names"),
    pytest.param(DEFAULT_SITE_NAMES, " | ".join(DEFAULT_SITE_NAMES), id="default-names"),
]


@pytest.mark.parametrize(("site_names", "expected"), DEFAULT_TITLE_CASES)
def test_the_default_title_lists_every_site_name_in_order(site_names, expected):
    assert build.default_title(site_names) == expected


def test_the_default_title_names_every_default_site_name():
    title = build.default_title(DEFAULT_SITE_NAMES)
    for name in DEFAULT_SITE_NAMES:
        assert name in title


# --------------------------------------------------------------------------
# static pages
# --------------------------------------------------------------------------

STATIC_PAGE_CASES = [
    pytest.param(PageKind.HOME, routes.HOME, True, id="home"),
    pytest.param(PageKind.GENRES, routes.GENRES, True, id="genres"),
    pytest.param(PageKind.SEARCH, routes.SEARCH, True, id="search"),
    pytest.param(PageKind.LIBRARY, routes.LIBRARY, False, id="library"),
    pytest.param(PageKind.HISTORY, routes.HISTORY, False, id="history"),
    pytest.param(PageKind.OFFLINE, routes.OFFLINE, False, id="offline"),
]


@pytest.mark.parametrize(("kind", "path", "indexable"), STATIC_PAGE_CASES)
def test_each_static_page_has_a_japanese_title_with_the_site_name(kind, path, indexable):
    head = static(kind)
    assert SITE in head.title
    # Japanese beyond the site name itself.
    assert JAPANESE.search(head.title.replace(SITE, ""))


@pytest.mark.parametrize(("kind", "path", "indexable"), STATIC_PAGE_CASES)
def test_each_static_page_has_a_japanese_description(kind, path, indexable):
    head = static(kind)
    assert head.description.strip()
    assert JAPANESE.search(head.description)


@pytest.mark.parametrize(("kind", "path", "indexable"), STATIC_PAGE_CASES)
def test_each_static_page_has_its_own_path(kind, path, indexable):
    head = static(kind)
    assert head.path == path
    assert routes.match(head.path) == RouteMatch(kind)


@pytest.mark.parametrize(("kind", "path", "indexable"), STATIC_PAGE_CASES)
def test_only_personal_pages_are_kept_out_of_the_index(kind, path, indexable):
    assert static(kind).indexable is indexable


def test_static_pages_have_distinct_titles_and_descriptions():
    kinds = (PageKind.HOME, PageKind.GENRES, PageKind.SEARCH, PageKind.LIBRARY, PageKind.HISTORY, PageKind.OFFLINE)
    all_heads = [static(kind) for kind in kinds]
    assert len({head.title for head in all_heads}) == len(all_heads)
    assert len({head.description for head in all_heads}) == len(all_heads)


def test_a_page_title_ends_with_the_site_name():
    assert static(PageKind.GENRES).title == f"ジャンル一覧 | {SITE}"


def test_the_home_title_is_the_default_title():
    assert static(PageKind.HOME).title == build.default_title(SITE_NAMES)


def test_home_declares_the_website_with_a_search_action():
    (website,) = static(PageKind.HOME).json_ld
    assert website["@type"] == "WebSite"
    assert website["name"] == SITE
    assert website["url"] == ORIGIN + "/"
    action = website["potentialAction"]
    assert action["@type"] == "SearchAction"
    template = action["target"]["urlTemplate"]
    assert template.startswith(ORIGIN)
    assert "/search?q={search_term_string}" in template
    assert action["query-input"] == "required name=search_term_string"


@pytest.mark.parametrize(
    ("kind", "path", "indexable"), [case for case in STATIC_PAGE_CASES if case.values[0] is not PageKind.HOME]
)
def test_other_static_pages_declare_breadcrumbs_from_home(kind, path, indexable):
    (crumbs,) = static(kind).json_ld
    assert crumbs["@type"] == "BreadcrumbList"
    items = crumbs["itemListElement"]
    assert [item["position"] for item in items] == [1, 2]
    assert items[0]["name"] == SITE
    assert items[0]["item"] == ORIGIN + "/"
    assert items[1]["item"] == ORIGIN + path


# --------------------------------------------------------------------------
# resolve.resolve_head (static pages need no catalogue)
# --------------------------------------------------------------------------


def test_no_route_match_has_no_head():
    assert asyncio.run(resolve.resolve_head(None, "/no-such-thing")) is None


@pytest.mark.parametrize(("kind", "path", "indexable"), STATIC_PAGE_CASES)
def test_a_static_page_match_gets_its_static_head(kind, path, indexable):
    settings = get_settings()
    expected = build.static_head(kind, site_names=settings.names, origin=settings.origin)
    assert asyncio.run(resolve.resolve_head(routes.match(path), path)) == expected


# --------------------------------------------------------------------------
# not found
# --------------------------------------------------------------------------

NOT_FOUND_CASES = [
    pytest.param("/no-such-thing", "漫画ひろば", id="unknown-path"),
    pytest.param("/manga/ABC", "Manga Hiroba", id="other-site-name"),
]


@pytest.mark.parametrize(("path", "site_name"), NOT_FOUND_CASES)
def test_the_not_found_page_is_titled_and_never_indexed(path, site_name):
    head = build.not_found_head(path, site_name=site_name)
    assert head.title == f"ページが見つかりません | {site_name}"
    assert head.indexable is False
    assert head.path == path
    assert JAPANESE.search(head.description)
