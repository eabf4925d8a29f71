"""Atom feeds for feed readers, served by the site's real HTTP layer over a
real imported demo catalogue: a series' newest units and a reader's library
under a secret feed key. Both validate against RFC 4287's schema."""

from __future__ import annotations

import hashlib

import pytest
from sqlmodel import select

from manga_app.accounts import opds_keys, repository
from manga_app.accounts.models import FeedKey, UserAccount
from tests.unit.opds.schema import NS, valid_atom

SERIES = "neko-machi-hiyori"


@pytest.fixture
def feed_key(accounts) -> str:
    """A reader who follows two series, with a feed key."""
    accounts.add(UserAccount(uid="feed-reader"))
    accounts.flush()
    repository.follow(session=accounts, uid="feed-reader", slug="koutetsu-no-atorie")
    repository.follow(session=accounts, uid="feed-reader", slug=SERIES)
    key = opds_keys.create_key(session=accounts, uid="feed-reader", table=FeedKey)
    accounts.commit()
    return key


def entries(document) -> list[tuple[str, str]]:
    return [(entry.findtext("a:title", namespaces=NS), entry.find("a:link[@rel='alternate']", NS).get("href"))
            for entry in document.findall("a:entry", NS)]


def test_a_series_feed_lists_its_newest_units_first_with_links_into_the_reader(client):
    response = client.get(f"/feeds/series/{SERIES}.atom")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/atom+xml")
    assert response.headers["cache-control"] == "public, max-age=300"
    document = valid_atom(response.content)
    listed = entries(document)
    assert listed and listed[0][0].startswith("第") and "話" in listed[0][0]
    numbers = [int(href.rsplit("-ch-", 1)[1].split("-")[0]) for _, href in listed if not href.endswith("-vol")]
    assert numbers == sorted(numbers, reverse=True)
    assert all(href.startswith("http") and f"/{SERIES}-ch-" in href for _, href in listed)
    assert document.find("a:link[@rel='self']", NS).get("href").endswith(f"/feeds/series/{SERIES}.atom")


def test_a_series_feed_answers_304_to_its_etag_and_404_for_unknown_or_malformed_slugs(client):
    first = client.get(f"/feeds/series/{SERIES}.atom")
    again = client.get(f"/feeds/series/{SERIES}.atom", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    head = client.head(f"/feeds/series/{SERIES}.atom")
    assert head.status_code == 200 and head.content == b"" and head.headers["etag"] == first.headers["etag"]
    for slug in ("no-such-series", "UPPER", "a%2Eb", "..", "x" * 300):
        missing = client.get(f"/feeds/series/{slug}.atom")
        assert missing.status_code == 404, slug
        assert "見つかりませんでした" in missing.text


def test_the_personal_feed_lists_the_library_and_only_its_key_opens_it(client, accounts, feed_key):
    response = client.get(f"/feeds/k/{feed_key}.atom")
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"].startswith("private")
    listed = entries(valid_atom(response.content))
    assert {href.split("/")[3].split("-ch-")[0] for _, href in listed} == {"koutetsu-no-atorie", SERIES}
    assert client.get(f"/feeds/k/{feed_key}.atom", headers={"If-None-Match": response.headers["etag"]}).status_code == 304
    stored = accounts.exec(select(FeedKey.key_hash).where(FeedKey.uid == "feed-reader")).one()
    assert stored == hashlib.sha256(feed_key.encode()).hexdigest()  # only the hash is kept
    # The OPDS key and the feed key are not interchangeable.
    assert client.get(f"/opds/k/{feed_key}").status_code == 401
    opds_keys.revoke_key(session=accounts, uid="feed-reader", table=FeedKey)
    accounts.commit()
    for key in (feed_key, "a" * 32, "short", "%00" * 4):
        refused = client.get(f"/feeds/k/{key}.atom")
        assert refused.status_code == 401, key
        assert "キーは無効です" in refused.text and refused.headers["cache-control"] == "no-store"


def test_a_new_feed_key_replaces_the_old(client, accounts, feed_key):
    newer = opds_keys.create_key(session=accounts, uid="feed-reader", table=FeedKey)
    accounts.commit()
    assert client.get(f"/feeds/k/{feed_key}.atom").status_code == 401
    assert client.get(f"/feeds/k/{newer}.atom").status_code == 200
