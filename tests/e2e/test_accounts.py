"""Accounts end to end, in Chromium against the real Firebase Auth emulator:
Google sign-in from the header through the emulator's sign-in page, a
follow from the title page that survives a reload, pages read in the real
reader resuming on a second device, sign-out, a guest upgraded to Google,
and the history kept and removed per account."""

from __future__ import annotations

import json
import re
import sqlite3
import time
import uuid
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from manga_app.core.routes import HISTORY, LIBRARY, manga_url
from tests.unit.accounts.emulator_accounts import google_token

from .conftest import wait_for_hydration
from .reader_helpers import series as reader_series

ROOT = Path(__file__).resolve().parents[2]
# The emulator's helper iframe and the Firebase SDK load Google's gapi
# loader; the test machine has no internet, so an offline stand-in is served.
GAPI_SHIM = (ROOT / "tools/firebase/offline_gapi.js").read_text()
HISTORY_KEY = "manga_reading_history"


@pytest.fixture(scope="module")
def series(base_url: str, server_env) -> list[dict]:
    """Demo series, newest first, whose chapters 1 to 3 exist with a title
    (the tests name those chapters and the history shows their titles).
    Series other modules import while the server runs may be newer and lack
    them (untitled chapters, only one or two chapters, volumes), so they are
    left out."""
    with _db(server_env) as db:
        titled = {row[0] for row in db.execute(
            "select s.slug from series s join chapter c on c.series_id = s.id"
            " where c.number_hundredths in (100, 200, 300) and c.title != '' group by s.slug having count(*) = 3"
        )}
    found = [item for item in httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"] if item["slug"] in titled]
    assert len(found) >= 4, "the demo library has series with titled chapters"
    return found


@pytest.fixture(scope="module")
def paged_series(server_env) -> str:
    """A right-to-left series: ArrowLeft turns to the next page."""
    return reader_series(server_env, "rtl")


def _db(server_env: dict[str, str]) -> sqlite3.Connection:
    return sqlite3.connect(server_env["REFLEX_DB_URL"].removeprefix("sqlite:///"))


def new_device(context: BrowserContext) -> None:
    context.route("https://apis.google.com/js/api.js*", lambda route: route.fulfill(body=GAPI_SHIM, content_type="text/javascript"))


@pytest.fixture
def device(context: BrowserContext, auth_emulator: str) -> BrowserContext:
    new_device(context)
    return context


def another_device(browser: Browser, **options) -> BrowserContext:
    context = browser.new_context(locale="ja-JP", **(options or {"viewport": {"width": 390, "height": 844}}))
    new_device(context)
    return context


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_hydration(page)


def signed_out(page: Page) -> None:
    """The header knows nobody is signed in (the auth state has arrived)."""
    expect(page.get_by_test_id("sign-in-open")).to_be_visible()


def visible(page: Page, test_id: str):
    return page.locator(f"[data-testid='{test_id}']:visible").first


def header_menu(page: Page) -> None:
    """Opens the header's account menu, signed in or not."""
    trigger = page.locator("#sign-in-area summary")
    expect(trigger).to_be_visible()
    if page.locator("#sign-in-area details[open]").count() == 0:
        trigger.click()


def sign_in_with_google(page: Page, *, email: str, name: str, existing: bool = False, button=None) -> None:
    """Googleでログイン (`button`, else the first visible one: the header menu
    or the page's panel) through the emulator's sign-in page."""
    with page.expect_popup() as popup_info:
        (button or visible(page, "sign-in-google")).click()
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


def read_before_signing_in(page: Page, base_url: str, slug: str, title: str, chapter: str, page_index: int) -> None:
    """What the reader leaves in the browser after reading `page_index + 1` pages."""
    entry = {"slug": slug, "title": title, "cover": "", "chapter": chapter, "chapter_title": "", "page": page_index,
             "offset": 0.0, "read_at": "2026-01-01T00:00:00Z", "read": [chapter]}
    page.goto(f"{base_url}/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [HISTORY_KEY, json.dumps([entry])])


def wait_for_server_progress(server_env, email: str, slug: str, page_index: int) -> None:
    """The account's position reached the server (the reader saves it in the background)."""
    deadline = time.monotonic() + 30
    query = """select p.page from reading_progress p join user_account u on u.uid = p.uid
               where u.email = ? and p.series_slug = ? and p.chapter_hundredths = 100"""
    while time.monotonic() < deadline:
        with _db(server_env) as db:
            row = db.execute(query, (email, slug)).fetchone()
        if row and row[0] == page_index:
            return
        time.sleep(0.2)
    raise AssertionError(f"the server never got page {page_index} of {slug} for {email} (last: {row})")


def test_sign_in_follow_reload_read_and_resume_on_a_second_device_then_sign_out(
    browser, base_url, server_env, device, page, paged_series
):
    email, name = f"reader-{uuid.uuid4().hex[:6]}@example.com", "読書 太郎"
    title_url = base_url + manga_url(paged_series)

    # Google sign-in from the header of a title page.
    open_page(page, title_url)
    signed_out(page)
    header_menu(page)
    sign_in_with_google(page, email=email, name=name)
    expect(page.get_by_test_id("account-name")).to_have_text(name)

    # Follow from the title page; a reload keeps the sign-in and the follow.
    follow = page.locator(".title-actions").get_by_test_id("follow-button")
    expect(follow).to_have_text("フォロー")
    follow.click()
    expect(follow).to_have_text("フォロー中")
    expect(page.locator(".ant-notification-notice").filter(has_text="フォローしました")).to_be_visible()
    page.reload()
    wait_for_hydration(page)
    expect(page.get_by_test_id("account-name")).to_have_text(name)
    expect(follow).to_have_text("フォロー中")

    # Read a few pages in the real reader.
    page.get_by_role("link", name="最初から読む").click()
    counter = page.locator(".reader-counter")
    expect(counter).to_have_text(re.compile(r"^1 / \d+$"))
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text(re.compile(r"^4 / \d+$"))
    total = int(counter.inner_text().split("/")[1])
    wait_for_server_progress(server_env, email, paged_series, 3)

    # A second device signs in as the same user: the library and the position are there.
    other = another_device(browser, viewport={"width": 1280, "height": 900})
    try:
        second = other.new_page()
        open_page(second, title_url)
        signed_out(second)
        expect(second.get_by_role("link", name=re.compile("続きを読む"))).to_have_count(0)
        header_menu(second)
        sign_in_with_google(second, email=email, name=name, existing=True)
        expect(second.get_by_test_id("account-name")).to_have_text(name)
        expect(second.locator(".title-actions").get_by_test_id("follow-button")).to_have_text("フォロー中")
        # Left at page 4 on the first device: where, not 既読.
        expect(second.locator(".chapter-row[data-number='1'] .read-progress")).to_have_text(f"4/{total}")
        expect(second.locator(".chapter-row[data-number='1'] .read-mark")).to_have_count(0)
        resume = second.get_by_role("link", name="続きを読む 第1話・4ページ目")
        expect(resume).to_be_visible()
        resume.click()
        expect(second.locator(".reader-counter")).to_have_text(f"4 / {total}")
        expect(second.locator(".reader-stage img[data-page-index='3']")).to_be_visible()
        # Read to the end here (the last page, then the end card): the account has it read.
        second.keyboard.press("End")
        expect(second.locator(".reader-counter")).to_have_text(f"{total} / {total}")
        second.keyboard.press("ArrowLeft")
        expect(second.locator(".reader-root")).to_have_attribute("data-at-end", "true")
        wait_for_server_progress(server_env, email, paged_series, total - 1)

        # Signing out takes the library off the screen.
        open_page(second, base_url + LIBRARY)
        expect(second.get_by_test_id("library-item")).to_have_count(1)
        header_menu(second)
        second.get_by_test_id("sign-out").click()
        signed_out(second)
        expect(second.get_by_test_id("library-item")).to_have_count(0)
        expect(second.get_by_test_id("sign-in-panel")).to_be_visible()
        open_page(second, base_url + HISTORY)
        expect(second.get_by_test_id("shelf-empty")).to_be_visible()
        open_page(second, title_url)
        expect(second.locator(".title-actions").get_by_test_id("follow-button")).to_have_text("フォロー")
        expect(second.get_by_role("link", name=re.compile("続きを読む"))).to_have_count(0)
        assert second.evaluate(f"localStorage.getItem('{HISTORY_KEY}')") in (None, "", "[]")
    finally:
        other.close()

    # The first device is still signed in and still has everything, with
    # the chapter finished on the second device read.
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_have_count(1)
    open_page(page, title_url)
    expect(page.locator(".chapter-row[data-number='1'] .read-mark")).to_have_text("既読")
    expect(page.locator(".chapter-row[data-number='1'] .read-progress")).to_have_count(0)


def _holding_the_sdk(scripts: list) -> list[str]:
    """Of the scripts downloaded, those that hold the Firebase Auth SDK (the
    code that speaks to identitytoolkit, Firebase Auth's API)."""
    return [response.url for response in scripts if "identitytoolkit.googleapis.com" in response.text()]


def test_a_visitor_who_never_signed_in_downloads_no_sign_in_code_until_asking_to(base_url, device, page, series):
    scripts: list = []
    page.on("response", lambda response: scripts.append(response) if response.request.resource_type == "script" else None)
    open_page(page, f"{base_url}/")
    signed_out(page)  # the server has been told: nobody
    assert _holding_the_sdk(scripts) == [], "the Firebase SDK was downloaded for a visitor who never signed in"

    # Asking to sign in brings it, and the sign-in works in this fresh profile.
    header_menu(page)
    sign_in_with_google(page, email=f"lazy-{uuid.uuid4().hex[:6]}@example.com", name="遅延 読者")
    expect(page.get_by_test_id("account-name")).to_have_text("遅延 読者")
    assert _holding_the_sdk(scripts), "signing in did not load the Firebase SDK"

    # A browser that holds the user loads it at once, and stays signed in.
    scripts.clear()
    page.reload()
    wait_for_hydration(page)
    expect(page.get_by_test_id("account-name")).to_have_text("遅延 読者")
    assert _holding_the_sdk(scripts)


def test_a_guest_who_signs_in_with_google_keeps_the_library(base_url, device, page, series):
    second = series[1]
    read_before_signing_in(page, base_url, second["slug"], second["title"], "2", 0)
    open_page(page, base_url + manga_url(second["slug"]))
    header_menu(page)
    visible(page, "sign-in-guest").click()
    expect(page.get_by_test_id("account-name")).to_have_text("ゲスト")
    page.locator(".title-actions").get_by_test_id("follow-button").click()
    expect(page.locator(".title-actions").get_by_test_id("follow-button")).to_have_text("フォロー中")

    name = "ゲスト から"
    header_menu(page)
    sign_in_with_google(page, email=f"guest-{uuid.uuid4().hex[:6]}@example.com", name=name)
    expect(page.get_by_test_id("account-name")).to_have_text(name)
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_contain_text(second["title"])
    open_page(page, base_url + HISTORY)
    expect(page.get_by_test_id("history-chapter")).to_have_text(re.compile(r"^第2話 .+"))  # with the chapter title


def test_a_guest_who_signs_in_to_an_existing_google_account_brings_the_library_along(base_url, device, page, series):
    # The Google account exists already (signed in on another device before).
    email, name = f"existing-{uuid.uuid4().hex[:6]}@example.com", "既存 花子"
    google_token(email, name=name)
    third = series[2]
    read_before_signing_in(page, base_url, third["slug"], third["title"], "3", 1)
    open_page(page, base_url + HISTORY)
    visible(page, "sign-in-guest").click()
    expect(page.get_by_test_id("account-bar-name")).to_have_text("ゲスト")
    page.get_by_test_id("history-item").get_by_test_id("follow-button").click()
    expect(page.get_by_test_id("history-item").get_by_test_id("follow-button")).to_have_text("フォロー中")

    # Linking fails (the credential is in use): sign in to it and merge on the server.
    sign_in_with_google(page, email=email, name=name, existing=True)
    expect(page.get_by_test_id("account-bar-name")).to_have_text(name)
    expect(page.locator(".ant-notification-notice").filter(has_text="ゲストのライブラリを引き継ぎました")).to_be_visible()
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_contain_text(third["title"])
    open_page(page, base_url + HISTORY)
    expect(page.get_by_test_id("history-chapter")).to_have_text(re.compile(r"^第3話 .+"))
    expect(page.get_by_test_id("history-page")).to_have_text("2ページ目")


def test_where_popups_are_blocked_the_guest_upgrade_runs_as_a_redirect_and_merges(base_url, device, page, series):
    email, name = f"redirect-{uuid.uuid4().hex[:6]}@example.com", "転送 次郎"
    google_token(email, name=name)
    fourth = series[3]
    # A browser that blocks every popup: Firebase falls back to a full-page redirect.
    page.add_init_script("window.open = () => null;")
    read_before_signing_in(page, base_url, fourth["slug"], fourth["title"], "1", 0)
    open_page(page, base_url + LIBRARY)
    visible(page, "sign-in-guest").click()
    expect(page.get_by_test_id("account-bar-name")).to_have_text("ゲスト")
    visible(page, "sign-in-google").click()
    page.wait_for_url(re.compile(r"/emulator/auth/handler"))
    page.locator(".js-reuse-account", has_text=email).click()
    page.wait_for_url(re.compile(re.escape(base_url + LIBRARY)))
    wait_for_hydration(page)
    expect(page.get_by_test_id("account-bar-name")).to_have_text(name)
    open_page(page, base_url + HISTORY)
    expect(page.get_by_test_id("history-item")).to_contain_text(fourth["title"])


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
    expect(page.locator(".ant-notification-notice").filter(has_text="閲覧履歴から削除しました")).to_be_visible()
    page.get_by_test_id("history-clear-open").click()
    page.get_by_test_id("history-clear").click()
    expect(items).to_have_count(0)
    expect(page.get_by_test_id("shelf-empty")).to_be_visible()
    page.reload()
    wait_for_hydration(page)
    expect(page.get_by_test_id("shelf-empty")).to_be_visible()


def test_the_header_menu_leads_to_the_library_and_closes_like_a_menu(base_url, device, page):
    open_page(page, base_url + "/genres")
    signed_out(page)
    box = page.locator("#sign-in-area").bounding_box()
    header_menu(page)
    menu = page.locator("#sign-in-area .account-menu")
    expect(menu).to_be_visible()
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    header_menu(page)
    page.locator("main").click(position={"x": 5, "y": 5})
    expect(menu).to_be_hidden()
    header_menu(page)
    page.get_by_test_id("menu-library").click()
    page.wait_for_url(re.compile(r"/library$"))
    expect(page.locator("h1")).to_have_text("ライブラリ")
    expect(menu).to_be_hidden()
    # The slot kept its place and size whatever the auth state showed.
    assert page.locator("#sign-in-area").bounding_box() == box



def continue_as_guest_following(page: Page, base_url: str, item: dict) -> None:
    """ゲストとして続ける on a title page, then フォロー."""
    open_page(page, base_url + manga_url(item["slug"]))
    header_menu(page)
    visible(page, "sign-in-guest").click()
    expect(page.get_by_test_id("account-name")).to_have_text("ゲスト")
    follow = page.locator(".title-actions").get_by_test_id("follow-button")
    follow.click()
    expect(follow).to_have_text("フォロー中")


def test_a_guest_is_asked_before_signing_out_loses_the_library(base_url, device, page, series):
    item = series[0]
    continue_as_guest_following(page, base_url, item)
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_contain_text(item["title"])

    # ログアウト in the header asks first, saying what goes; キャンセル keeps everything.
    header_menu(page)
    page.get_by_test_id("sign-out").click()
    dialog = page.get_by_role("dialog", name="ゲストのままログアウトしますか？")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("フォロー・閲覧履歴・読んだ位置")
    expect(dialog).to_contain_text("元に戻せません")
    expect(dialog.get_by_role("button", name="Googleでログインして残す")).to_be_visible()
    dialog.get_by_role("button", name="キャンセル").click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("account-bar-name")).to_have_text("ゲスト")
    expect(page.get_by_test_id("library-item")).to_contain_text(item["title"])

    # The page's ログアウト asks too (Escape closes the question as well);
    # confirming signs out and the library is gone.
    page.get_by_test_id("account-bar-sign-out").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("account-bar-name")).to_have_text("ゲスト")
    page.get_by_test_id("account-bar-sign-out").click()
    dialog.get_by_role("button", name="消してログアウト").click()
    signed_out(page)
    expect(page.get_by_test_id("library-item")).to_have_count(0)
    expect(page.get_by_test_id("sign-in-panel")).to_be_visible()


def test_a_guest_asked_before_signing_out_can_keep_the_library_with_google(base_url, device, page, series):
    item = series[1]
    continue_as_guest_following(page, base_url, item)
    header_menu(page)
    page.get_by_test_id("sign-out").click()
    dialog = page.get_by_role("dialog", name="ゲストのままログアウトしますか？")
    name = "残す 三郎"
    sign_in_with_google(page, email=f"keep-{uuid.uuid4().hex[:6]}@example.com", name=name,
                        button=dialog.get_by_role("button", name="Googleでログインして残す"))
    expect(dialog).to_be_hidden()
    expect(page.get_by_test_id("account-name")).to_have_text(name)
    open_page(page, base_url + LIBRARY)
    expect(page.get_by_test_id("library-item")).to_contain_text(item["title"])

    # A Google account is not asked: its library is kept on the server.
    header_menu(page)
    page.get_by_test_id("sign-out").click()
    signed_out(page)
    expect(dialog).to_be_hidden()


def unreachable_google_notice(page: Page):
    return page.locator(".ant-notification-notice").filter(has_text="Googleに接続できませんでした")


@pytest.mark.parametrize("google", ["refused", "silent"])
def test_google_sign_in_that_cannot_reach_google_says_so_and_what_to_do(base_url, context, auth_emulator, page, google):
    """Google's sign-in script cannot be had: the connection fails
    ("refused"), or an answer comes that is not the script and never calls
    back ("silent": what the tests' network gives every foreign host)."""
    if google == "refused":
        context.route("https://apis.google.com/**", lambda route: route.abort("internetdisconnected"))
    open_page(page, base_url + "/genres")
    signed_out(page)
    header_menu(page)
    visible(page, "sign-in-google").click()
    notice = unreachable_google_notice(page)
    expect(notice).to_be_visible(timeout=20_000)
    expect(notice).to_contain_text("Googleのログイン画面を読み込めませんでした")
    expect(notice).to_contain_text("「ゲストとして続ける」")
    expect(notice).to_contain_text("しばらくしてから")
    expect(notice).to_have_count(1)
    # Still signed out, and the guest way still works.
    header_menu(page)
    visible(page, "sign-in-guest").click()
    expect(page.get_by_test_id("account-name")).to_have_text("ゲスト")
