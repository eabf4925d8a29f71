"""Personal feeds (フォロー中, 続きを読む) under a user's OPDS key: only the
key's hash is stored, and a wrong, replaced or revoked key answers 401."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest
from sqlmodel import select

from manga_app.accounts import opds_keys, progress, repository
from manga_app.accounts.models import OpdsKey, UserAccount
from tests.unit.opds.schema import ACQUISITION, NS, valid_feed

PSE = "{http://vaemendis.net/opds-pse/ns}"


@pytest.fixture
def reader(accounts) -> str:
    """A user who follows two series and stopped on page 5 of ねこまち日和 第2話."""
    accounts.add(UserAccount(uid="reader-1"))
    accounts.flush()
    repository.follow(session=accounts, uid="reader-1", slug="koutetsu-no-atorie")
    repository.follow(session=accounts, uid="reader-1", slug="neko-machi-hiyori")
    progress.record_progress(session=accounts, uid="reader-1", slug="neko-machi-hiyori", chapter_hundredths=200,
                             page=5, offset=0.0, at=datetime(2026, 11, 1, tzinfo=UTC))
    key = opds_keys.create_key(session=accounts, uid="reader-1")
    accounts.commit()
    return key


def feed(client, href: str):
    response = client.get(href)
    assert response.status_code == 200, f"{href}: {response.text}"
    assert response.headers["cache-control"].startswith("private")
    return valid_feed(response.content, response.headers["content-type"])


def titles(document) -> list[str]:
    return [entry.findtext("a:title", namespaces=NS) for entry in document.findall("a:entry", NS)]


def test_the_personal_root_adds_following_and_continue_and_keeps_the_key_in_every_link(client, reader):
    root = feed(client, f"/opds/k/{reader}")
    assert titles(root)[-2:] == ["フォロー中", "続きを読む"]
    hrefs = [link.get("href") for link in root.iter("{http://www.w3.org/2005/Atom}link")]
    assert all(href.startswith(f"/opds/k/{reader}") or href == "/favicon.ico" for href in hrefs), hrefs
    assert titles(feed(client, f"/opds/k/{reader}/following")) == ["ねこまち日和", "鋼鉄のアトリエ"]
    reading = feed(client, f"/opds/k/{reader}/continue")
    assert titles(reading)[0].startswith("第2話")
    stream = reading.find("a:entry/a:link[@rel='http://vaemendis.net/opds-pse/stream']", NS)
    assert stream.get(f"{PSE}lastRead") == "5"
    assert client.get(f"/opds/k/{reader}/series/neko-machi-hiyori/2/pages/0").status_code == 200


def test_only_the_hash_of_a_key_is_stored(accounts, reader):
    row = accounts.exec(select(OpdsKey).where(OpdsKey.uid == "reader-1")).one()
    assert row.key_hash == hashlib.sha256(reader.encode()).hexdigest()
    assert reader not in row.key_hash


def test_a_wrong_key_and_no_key_are_refused_with_401(client, reader):
    wrong = reader[:-1] + ("A" if reader[-1] != "A" else "B")
    for href in (f"/opds/k/{wrong}", f"/opds/k/{wrong}/following", "/opds/k/short", "/opds/following",
                 "/opds/continue", f"/opds/k/{wrong}/series/neko-machi-hiyori/1.cbz"):
        response = client.get(href)
        assert response.status_code == 401, href
        assert "キー" in response.text


def test_a_revoked_or_replaced_key_stops_working(client, accounts, reader):
    newer = opds_keys.create_key(session=accounts, uid="reader-1")
    accounts.commit()
    assert client.get(f"/opds/k/{reader}/following").status_code == 401
    assert client.get(f"/opds/k/{newer}/following").status_code == 200
    assert opds_keys.revoke_key(session=accounts, uid="reader-1")
    accounts.commit()
    assert client.get(f"/opds/k/{newer}/following").status_code == 401
    assert client.get(f"/opds/k/{newer}").status_code == 401


def test_a_personal_feed_is_acquisition_when_it_lists_chapters(client, reader):
    response = client.get(f"/opds/k/{reader}/continue")
    assert response.headers["content-type"] == ACQUISITION


def test_what_is_read_under_a_key_is_never_kept_by_a_shared_cache(client, reader):
    # The key is in every URL under it: a shared cache keeping its answers would keep the key.
    for href in (f"/opds/k/{reader}/series/neko-machi-hiyori/1/pages/0", f"/opds/k/{reader}/series/neko-machi-hiyori/1.cbz",
                 f"/opds/k/{reader}/new"):
        response = client.get(href)
        assert response.status_code == 200, href
        assert response.headers["cache-control"].startswith("private"), (href, response.headers["cache-control"])
    assert client.get("/opds/series/neko-machi-hiyori/1/pages/0").headers["cache-control"].startswith("public")
