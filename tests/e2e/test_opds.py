"""OPDS against the served site: an app's walk from /opds to a download,
and a signed-in reader's personal key made, used and revoked on /library."""

from __future__ import annotations

import io
import re
import uuid
import zipfile
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from playwright.sync_api import expect

from manga_app.core.routes import LIBRARY, manga_url
from tests.unit.opds.schema import NS, valid_feed

from .conftest import SITE_ORIGIN
from .test_accounts import device, open_page, paged_series, sign_in_with_google, signed_out  # noqa: F401

pytestmark = pytest.mark.usefixtures("auth_emulator")


def feed(url: str):
    response = httpx.get(url, timeout=30)
    assert response.status_code == 200, f"{url}: {response.status_code} {response.text}"
    return valid_feed(response.content, response.headers["content-type"])


def first_link(document, rel: str, base: str) -> str:
    return urljoin(base, document.find(f"a:entry/a:link[@rel='{rel}']", NS).get("href"))


def test_an_app_walks_from_the_root_through_a_genre_and_a_series_to_a_cbz(base_url):
    root_url = f"{base_url}/opds"
    root = feed(root_url)
    genres_url = urljoin(root_url, root.find("a:entry[a:title='ジャンル']/a:link", NS).get("href"))
    genre_url = first_link(feed(genres_url), "subsection", genres_url)
    series_url = first_link(feed(genre_url), "subsection", genre_url)
    units = feed(series_url)
    download = first_link(units, "http://opds-spec.org/acquisition", series_url)
    response = httpx.get(download, timeout=60)
    assert response.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    count = int(units.find("a:entry/a:link[@rel='http://vaemendis.net/opds-pse/stream']", NS)
                .get("{http://vaemendis.net/opds-pse/ns}count"))
    assert archive.namelist()[0] == "ComicInfo.xml" and len(archive.namelist()) == count + 1


def test_a_reader_creates_a_key_on_the_library_reads_their_feed_in_an_app_then_revokes_it(
    base_url, device, page, paged_series  # noqa: F811
):
    open_page(page, base_url + manga_url(paged_series))
    signed_out(page)
    page.locator("#sign-in-area summary").click()
    sign_in_with_google(page, email=f"opds-{uuid.uuid4().hex[:6]}@example.com", name="アプリ 花子")
    follow = page.locator(".title-actions").get_by_test_id("follow-button")
    follow.click()
    expect(follow).to_have_text("フォロー中")

    open_page(page, base_url + LIBRARY)
    panel = page.get_by_test_id("opds-panel")
    expect(panel).to_contain_text(f"{SITE_ORIGIN}/opds")
    panel.get_by_test_id("opds-create").click()
    url = page.get_by_test_id("opds-url")
    expect(url).to_have_value(re.compile(rf"^{re.escape(SITE_ORIGIN)}/opds/k/[A-Za-z0-9_-]{{32}}$"))
    personal = urlsplit(url.input_value()).path
    device.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    panel.get_by_test_id("opds-copy").click()
    expect(page.locator(".ant-notification-notice").filter(has_text="URLをコピーしました")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == url.input_value()
    assert personal.startswith("/opds/k/") and len(personal) == len("/opds/k/") + 32
    expect(panel.get_by_test_id("opds-status")).to_be_visible()

    following = feed(f"{base_url}{personal}/following")
    slugs = [entry.findtext("a:id", namespaces=NS).rsplit(":", 1)[1] for entry in following.findall("a:entry", NS)]
    assert slugs == [paged_series]

    # Shown once: after a reload the key is still active but its URL is gone.
    page.reload()
    expect(panel.get_by_test_id("opds-status")).to_be_visible()
    expect(page.get_by_test_id("opds-url")).to_have_count(0)

    panel.get_by_test_id("opds-revoke").click()
    expect(panel.get_by_test_id("opds-create")).to_be_visible()
    refused = httpx.get(f"{base_url}{personal}/following", timeout=30)
    assert refused.status_code == 401
    assert "キー" in refused.text
