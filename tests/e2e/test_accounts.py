"""Accounts end to end, in Chromium against the real Firebase Auth emulator:
Google sign-in through the emulator's sign-in page, the library kept across
reloads and devices, sign-out, and a guest upgraded to Google.

The reader and the title page are other modules; the reading a visitor did
before signing in is put into the browser in the reading-history format the
reader writes (manga_app/reading.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, expect

from manga_app.auth import emulator
from manga_app.routes import HISTORY, LIBRARY
from tests.unit.auth.emulator_accounts import google_token

from .conftest import _only_loopback, wait_for_hydration

ROOT = Path(__file__).resolve().parents[2]
# The emulator's helper iframe and the Firebase SDK load Google's gapi
# loader; the test machine has no internet, so an offline stand-in is served.
GAPI_SHIM = (ROOT / "tools/firebase/offline_gapi.js").read_text()
HISTORY_KEY = "manga_reading_history"


@pytest.fixture(scope="module")
def auth_emulator(tmp_path_factory) -> Iterator[str]:
    with emulator.running_emulator(log_path=tmp_path_factory.mktemp("emulator") / "emulator.log") as host:
        yield host


@pytest.fixture(scope="module")
def series(base_url: str) -> list[dict]:
    return httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"]


def new_device(context: BrowserContext) -> None:
    context.route("https://apis.google.com/js/api.js*", lambda route: route.fulfill(body=GAPI_SHIM, content_type="text/javascript"))


@pytest.fixture
def device(context: BrowserContext, auth_emulator: str) -> BrowserContext:
    new_device(context)
    return context


def read_before_signing_in(page: Page, base_url: str, slug: str, title: str, chapter: str, page_index: int) -> None:
    """What the reader leaves in the browser after reading `page_index + 1` pages."""
    entry = {"slug": slug, "title": title, "cover": "", "chapter": chapter, "chapter_title": "", "page": page_index,
             "offset": 0.0, "read_at": "2026-01-01T00:00:00Z", "read": [chapter]}
    page.goto(f"{base_url}/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [HISTORY_KEY, json.dumps([entry])])


def sign_in_with_google(page: Page, *, email: str, name: str, existing: bool = False) -> None:
    with page.expect_popup() as popup_info:
        page.get_by_test_id("sign-in-google").first.click()
    popup = popup_info.value
    popup.wait_for_load_state()
    if existing:
        popup.locator(".js-reuse-account", has_text=email).click()
    else:
        popup.get_by_text("Add new account").click()
        popup.locator("#email-input").fill(email)
        popup.locator("#display-name-input").fill(name)
        popup.locator("#sign-in").click()
    popup.wait_for_event("close")


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_hydration(page)


def test_google_sign_in_keeps_the_library_across_reloads_and_devices(browser, base_url, device, page, series, auth_emulator):
    first = series[0]
    email, name = f"reader-{uuid.uuid4().hex[:6]}@example.com", "読書 太郎"
    read_before_signing_in(page, base_url, first["slug"], first["title"], "1", 4)

    # Before signing in, the browser's history shows; follow from it.
    open_page(page, base_url + HISTORY)
    item = page.get_by_test_id("history-item")
    expect(item).to_have_count(1)
    expect(item.get_by_test_id("history-page")).to_have_text("5ページ目")
    item.get_by_test_id("follow-button").click()
    expect(item.get_by_test_id("follow-button")).to_have_text("フォロー中")

    # Google sign-in through the emulator's sign-in page.
    sign_in_with_google(page, email=email, name=name)
    expect(page.get_by_test_id("account-bar-name")).to_have_text(name)

    # The browser's library joined the account and survives a reload.
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_have_count(1)
    page.reload()
    wait_for_hydration(page)
    expect(page.get_by_test_id("account-bar-name")).to_have_text(name)
    expect(page.get_by_test_id("library-item")).to_contain_text(first["title"])
    expect(page.get_by_test_id("follow-button")).to_have_text("フォロー中")

    # A second device signs in as the same user: follows and progress are there.
    other = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    try:
        other.route("**/*", _only_loopback)
        new_device(other)
        second = other.new_page()
        open_page(second, base_url + HISTORY)
        expect(second.get_by_test_id("shelf-empty")).to_be_visible()
        sign_in_with_google(second, email=email, name=name, existing=True)
        expect(second.get_by_test_id("account-bar-name")).to_have_text(name)
        history_item = second.get_by_test_id("history-item")
        expect(history_item).to_have_count(1)
        expect(history_item.get_by_test_id("history-chapter")).to_have_text("第1話")
        expect(history_item.get_by_test_id("history-page")).to_have_text("5ページ目")
        expect(history_item.get_by_test_id("continue-link")).to_have_attribute("href", f"/{first['slug']}-ch-1")

        # Signing out takes the library off the screen.
        second.get_by_test_id("account-bar-sign-out").click()
        expect(second.get_by_test_id("sign-in-panel")).to_be_visible()
        expect(second.get_by_test_id("history-item")).to_have_count(0)
        open_page(second, base_url + LIBRARY)
        expect(second.get_by_test_id("library-item")).to_have_count(0)
        expect(second.get_by_test_id("shelf-empty")).to_be_visible()
    finally:
        other.close()


def test_a_guest_who_signs_in_with_google_keeps_the_library(base_url, device, page, series):
    second = series[1]
    read_before_signing_in(page, base_url, second["slug"], second["title"], "2", 0)
    open_page(page, base_url + HISTORY)
    page.get_by_test_id("sign-in-guest").first.click()
    expect(page.get_by_test_id("account-bar-name")).to_have_text("ゲスト")
    item = page.get_by_test_id("history-item")
    expect(item).to_have_count(1)
    item.get_by_test_id("follow-button").click()
    expect(item.get_by_test_id("follow-button")).to_have_text("フォロー中")

    name = "ゲスト から"
    sign_in_with_google(page, email=f"guest-{uuid.uuid4().hex[:6]}@example.com", name=name)
    expect(page.get_by_test_id("account-bar-name")).to_have_text(name)
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_contain_text(second["title"])
    open_page(page, base_url + HISTORY)
    expect(page.get_by_test_id("history-chapter")).to_have_text("第2話")


def test_a_guest_who_signs_in_to_an_existing_google_account_brings_the_library_along(base_url, device, page, series):
    # The Google account exists already (signed in on another device before).
    email, name = f"existing-{uuid.uuid4().hex[:6]}@example.com", "既存 花子"
    google_token(email, name=name)
    third = series[2]
    read_before_signing_in(page, base_url, third["slug"], third["title"], "3", 1)
    open_page(page, base_url + HISTORY)
    page.get_by_test_id("sign-in-guest").first.click()
    expect(page.get_by_test_id("account-bar-name")).to_have_text("ゲスト")
    page.get_by_test_id("history-item").get_by_test_id("follow-button").click()
    expect(page.get_by_test_id("history-item").get_by_test_id("follow-button")).to_have_text("フォロー中")

    # Linking fails (the credential is in use): sign in to it and merge on the server.
    sign_in_with_google(page, email=email, name=name, existing=True)
    expect(page.get_by_test_id("account-bar-name")).to_have_text(name)
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_contain_text(third["title"])
    open_page(page, base_url + HISTORY)
    expect(page.get_by_test_id("history-chapter")).to_have_text("第3話")
    expect(page.get_by_test_id("history-page")).to_have_text("2ページ目")


def test_history_entries_are_removed_one_by_one_or_all(base_url, device, page, series):
    entries = [
        {"slug": item["slug"], "title": item["title"], "cover": "", "chapter": "1", "chapter_title": "", "page": 0,
         "offset": 0.0, "read_at": f"2026-01-0{index + 1}T00:00:00Z", "read": ["1"]}
        for index, item in enumerate(series[:3])
    ]
    # An unknown series and garbage in the browser's storage are not shown.
    entries.append({"slug": "no-such-series", "title": "x", "chapter": "1"})
    page.goto(f"{base_url}/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [HISTORY_KEY, json.dumps(entries)])
    open_page(page, base_url + HISTORY)
    items = page.get_by_test_id("history-item")
    expect(items).to_have_count(3)
    expect(items.first).to_contain_text(series[2]["title"])  # most recent first
    items.first.get_by_test_id("history-remove").click()
    expect(items).to_have_count(2)
    page.get_by_test_id("history-clear-open").click()
    page.get_by_test_id("history-clear").click()
    expect(items).to_have_count(0)
    expect(page.get_by_test_id("shelf-empty")).to_be_visible()
    page.reload()
    wait_for_hydration(page)
    expect(page.get_by_test_id("shelf-empty")).to_be_visible()
