"""Searching the way the site does (kana, katakana, romaji, kanji), feeds
that page with first/next/last links, and caching by catalogue version."""

from __future__ import annotations

import pytest

from manga_app.web import opds
from tests.unit.opds.conftest import DEMO_SERIES
from tests.unit.opds.schema import NAVIGATION, NS, valid_feed


def titles(client, href: str) -> list[str]:
    response = client.get(href)
    assert response.status_code == 200, response.text
    document = valid_feed(response.content, response.headers["content-type"])
    return [entry.findtext("a:title", namespaces=NS) for entry in document.findall("a:entry", NS)]


def test_the_opensearch_description_points_at_the_search_feed(client):
    response = client.get("/opds/search.xml")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/opensearchdescription+xml")
    assert 'template="/opds/search?q={searchTerms}"' in response.text


@pytest.mark.parametrize("query", ["ねこまち", "ネコマチ", "nekomachi", "ねこまち日和", "日和", "neko machi"])
def test_search_finds_a_title_by_its_kana_reading_romaji_or_kanji(client, query):
    assert titles(client, f"/opds/search?q={query}")[0] == "ねこまち日和"


def test_search_by_an_authors_name(client):
    assert "ねこまち日和" in titles(client, "/opds/search?q=小日向")


def test_kana_rows_file_titles_by_their_reading(client):
    # ねこまち日和 reads ねこまちひより (な行); 鋼鉄のアトリエ reads こうてつのあとりえ (か行).
    assert titles(client, "/opds/kana/na") == ["ねこまち日和"]
    assert "鋼鉄のアトリエ" in titles(client, "/opds/kana/ka")


def test_a_paged_feed_leads_through_every_page_with_next_and_ends_at_last(client, monkeypatch):
    monkeypatch.setattr(opds, "SERIES_PER_PAGE", 1)
    every = titles(client, "/opds/popular?page=1")
    href, seen = "/opds/popular", []
    while href:
        response = client.get(href)
        document = valid_feed(response.content, response.headers["content-type"])
        seen += [entry.findtext("a:title", namespaces=NS) for entry in document.findall("a:entry", NS)]
        first = document.find("a:link[@rel='first']", NS).get("href")
        last = document.find("a:link[@rel='last']", NS).get("href")
        assert first == "/opds/popular" and last == f"/opds/popular?page={DEMO_SERIES + 1}"
        following = document.find("a:link[@rel='next']", NS)
        href = following.get("href") if following is not None else ""
    # The demo's series and the messy one (conftest.write_messy_series).
    assert len(seen) == len(set(seen)) == DEMO_SERIES + 1 and seen[0] == every[0]


def test_feeds_are_cacheable_and_answer_304_to_a_known_etag(client):
    first = client.get("/opds/latest")
    assert first.headers["cache-control"].startswith("public")
    assert first.headers["last-modified"].endswith("GMT")
    again = client.get("/opds/latest", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    other = client.get("/opds/popular", headers={"If-None-Match": first.headers["etag"]})
    assert other.status_code == 200
    assert other.headers["content-type"] == NAVIGATION
