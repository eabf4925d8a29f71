"""Table-driven tests for manga_app.heads.seo: hosts, the robots rule, JSON-LD and
the head HTML written into the first response."""

from __future__ import annotations

import json

import pytest

from manga_app.heads.seo import (
    INDEX_FOLLOW,
    NOINDEX_NOFOLLOW,
    PageHead,
    absolute_url,
    host_name,
    is_production_host,
    json_ld_text,
    robots_for,
)

ORIGIN = "https://manga.example.jp"


def cases(table):
    return [pytest.param(*row[1:], id=row[0]) for row in table]


# --------------------------------------------------------------------------
# host_name / is_production_host
# --------------------------------------------------------------------------

HOST_NAME_CASES = [
    ("plain", "example.com", "example.com"),
    ("port", "example.com:8080", "example.com"),
    ("https-port", "Example.COM:443", "example.com"),
    ("upper-case", "EXAMPLE.COM", "example.com"),
    ("surrounding-space", "  example.com:3000 ", "example.com"),
    ("localhost-port", "localhost:3000", "localhost"),
    ("ipv4-port", "127.0.0.1:3000", "127.0.0.1"),
    ("ipv6", "[::1]", "[::1]"),
    ("ipv6-port", "[::1]:3000", "[::1]"),
    ("ipv6-upper-case-port", "[2001:DB8::1]:8443", "[2001:db8::1]"),
    ("empty", "", ""),
]


@pytest.mark.parametrize(("host", "expected"), cases(HOST_NAME_CASES))
def test_the_host_name_drops_the_port_and_case(host, expected):
    assert host_name(host) == expected


PRODUCTION_HOST_CASES = [
    ("same-host", "manga.example.jp", "manga.example.jp", True),
    ("port-on-request", "manga.example.jp:443", "manga.example.jp", True),
    ("port-on-setting", "manga.example.jp", "manga.example.jp:8443", True),
    ("different-ports", "manga.example.jp:80", "manga.example.jp:8443", True),
    ("request-upper-case", "MANGA.Example.JP", "manga.example.jp", True),
    ("setting-upper-case", "manga.example.jp", "Manga.Example.JP", True),
    ("ipv6", "[::1]:3000", "[::1]", True),
    ("other-host", "staging.example.jp", "manga.example.jp", False),
    ("subdomain", "www.manga.example.jp", "manga.example.jp", False),
    ("suffix-trick", "manga.example.jp.evil.com", "manga.example.jp", False),
    ("prefix-trick", "evilmanga.example.jp", "manga.example.jp", False),
    ("localhost", "localhost:3000", "manga.example.jp", False),
    ("missing-host-header", "", "manga.example.jp", False),
    ("empty-production-host", "manga.example.jp", "", False),
    ("both-empty", "", "", False),
    ("localhost-with-empty-production-host", "localhost:3000", "", False),
]


@pytest.mark.parametrize(("host", "production_host", "expected"), cases(PRODUCTION_HOST_CASES))
def test_only_the_configured_host_is_production(host, production_host, expected):
    assert is_production_host(host, production_host) is expected


# --------------------------------------------------------------------------
# robots_for
# --------------------------------------------------------------------------


def a_head(**overrides) -> PageHead:
    values = {"title": "ジャンル一覧 | 漫画ひろば", "description": "説明", "path": "/genres"}
    values.update(overrides)
    return PageHead(**values)


ROBOTS_CASES = [
    ("indexable-on-production", True, "manga.example.jp", "manga.example.jp", INDEX_FOLLOW),
    ("indexable-on-production-with-port", True, "manga.example.jp:443", "manga.example.jp", INDEX_FOLLOW),
    ("not-indexable-on-production", False, "manga.example.jp", "manga.example.jp", NOINDEX_NOFOLLOW),
    ("indexable-on-staging", True, "staging.example.jp", "manga.example.jp", NOINDEX_NOFOLLOW),
    ("indexable-on-localhost", True, "localhost:3000", "manga.example.jp", NOINDEX_NOFOLLOW),
    ("indexable-without-production-host", True, "manga.example.jp", "", NOINDEX_NOFOLLOW),
    ("not-indexable-anywhere", False, "localhost:3000", "", NOINDEX_NOFOLLOW),
]


@pytest.mark.parametrize(("indexable", "host", "production_host", "expected"), cases(ROBOTS_CASES))
def test_robots_say_index_follow_only_for_an_indexable_page_on_production(
    indexable, host, production_host, expected
):
    head = a_head(indexable=indexable)
    assert robots_for(head, host=host, production_host=production_host) == expected


# --------------------------------------------------------------------------
# absolute_url
# --------------------------------------------------------------------------

ABSOLUTE_URL_CASES = [
    ("root", ORIGIN, "/", f"{ORIGIN}/"),
    ("path", ORIGIN, "/genres", f"{ORIGIN}/genres"),
    ("origin-trailing-slash", ORIGIN + "/", "/genres", f"{ORIGIN}/genres"),
    ("path-without-slash", ORIGIN, "icons/og.png", f"{ORIGIN}/icons/og.png"),
    ("origin-slash-and-bare-path", ORIGIN + "/", "icons/og.png", f"{ORIGIN}/icons/og.png"),
    ("localhost-origin", "http://localhost:3000", "/manga/abc", "http://localhost:3000/manga/abc"),
    ("encoded-path", ORIGIN, "/genre/%E3%83%9B", f"{ORIGIN}/genre/%E3%83%9B"),
    ("https-url-kept", ORIGIN, "https://cdn.example.com/a.png", "https://cdn.example.com/a.png"),
    ("http-url-kept", ORIGIN, "http://cdn.example.com/a.png", "http://cdn.example.com/a.png"),
]


@pytest.mark.parametrize(("origin", "path", "expected"), cases(ABSOLUTE_URL_CASES))
def test_an_absolute_url_is_the_origin_plus_the_path(origin, path, expected):
    assert absolute_url(origin, path) == expected


# --------------------------------------------------------------------------
# json_ld_text
# --------------------------------------------------------------------------

WEBSITE = {"@context": "https://schema.org", "@type": "WebSite", "name": "漫画ひろば"}
CRUMBS = {"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": []}
BREAKOUT = "</script><script>alert('x')</script><!--"


def test_no_json_ld_blocks_give_no_text():
    assert json_ld_text(()) == ""
    assert json_ld_text([]) == ""


@pytest.mark.parametrize("blocks", [pytest.param((WEBSITE,), id="tuple"), pytest.param([WEBSITE], id="list")])
def test_one_json_ld_block_is_written_as_that_object(blocks):
    assert json.loads(json_ld_text(blocks)) == WEBSITE


def test_several_json_ld_blocks_are_written_as_one_graph():
    document = json.loads(json_ld_text((WEBSITE, CRUMBS)))
    assert document == {"@context": "https://schema.org", "@graph": [WEBSITE, CRUMBS]}


UNSAFE_VALUE_CASES = [
    ("script-breakout", BREAKOUT),
    ("upper-case-breakout", "</SCRIPT><img src=x onerror=alert(1)>"),
    ("comment-open", "<!-- x"),
    ("ampersand-entity", "a &amp; b & c"),
    ("angle-brackets", "1 < 2 > 0"),
]


@pytest.mark.parametrize("value", cases(UNSAFE_VALUE_CASES))
def test_a_json_ld_value_cannot_break_out_of_its_script(value):
    block = {"@type": "Book", "name": value}
    text = json_ld_text((block, {"@type": "Thing", "description": value}))
    assert "<" not in text
    assert ">" not in text
    assert "&" not in text
    # ...and it still decodes to the original value.
    assert json.loads(text)["@graph"][0]["name"] == value


def test_json_ld_keeps_japanese_text_readable():
    text = json_ld_text(({"name": "呪術廻戦"},))
    assert "呪術廻戦" in text
