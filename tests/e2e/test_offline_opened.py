"""Chapters opened online read offline, in Chromium, in a fresh browser
profile, with nothing pressed: a reader opens a chapter, sees its pages,
leaves it (the app's own link, the browser's back button) or stays on it,
goes offline and opens it again (or reloads it): every page they saw is
drawn. A page never kept, opened offline, still looks like the site."""

from __future__ import annotations

import re

from playwright.sync_api import BrowserContext, Page, expect

from manga_app.core.routes import manga_url
from tests.e2e.reader_helpers import counter, image_decoded, manifest, open_chapter, series_with_chapters, show_menu
from tests.e2e.test_accounts import open_page
from tests.e2e.test_offline import OFFLINE_NOTICE, reader_interactive, worker_in_control

NOT_SAVED = "このページは保存されていないため"


def read_through(page: Page, total: int) -> None:
    """Turns from the first page to the last (right-to-left: ← is next),
    each page drawn (decoded) before the next."""
    reader_interactive(page)
    page.keyboard.press("Home")
    for index in range(total):
        expect(counter(page)).to_have_text(f"{index + 1} / {total}")
        image_decoded(page, f".reader-stage img[data-page-index='{index}']")
        if index + 1 < total:
            page.keyboard.press("ArrowLeft")


def open_from_title_page(page: Page, number: str) -> None:
    page.locator(f".chapter-row[data-number='{number}'] a.chapter-link").click()
    expect(page).to_have_url(re.compile(rf"/[^/]+-ch-{number}(-[^/]*)?$"))
    expect(page.locator(".reader-root img.reader-page").first).to_be_visible()


def kept(page: Page, key: str, total: int) -> None:
    """Waits until this browser's offline index holds the chapter (`slug/n`) with every
    page the reader saw (kept as they load, assets/js/offline/store.js): a
    reader does not go offline within milliseconds of the last page."""
    page.wait_for_function(
        """([key, total]) => {
          const items = (JSON.parse(localStorage.getItem("manga_offline_chapters") || "null") || {}).items || {};
          const entry = Object.values(items).find((item) => item.key === key);
          return !!entry && (entry.files || []).length >= total;
        }""",
        arg=[key, total],
    )


def reads_offline(page: Page, total: int) -> None:
    expect(page.locator("body")).not_to_contain_text(NOT_SAVED)
    expect(page.get_by_test_id("offline-banner")).to_contain_text(OFFLINE_NOTICE)
    read_through(page, total)


def test_a_chapter_read_online_opens_offline_after_leaving_it_by_link_or_back_button(
    base_url: str, server_env, context: BrowserContext, page: Page
) -> None:
    slug = series_with_chapters(server_env, "rtl", 3)
    title_url = base_url + manga_url(slug)
    open_page(page, title_url)
    worker_in_control(page)

    # Chapter 2, read online, then the reader's own link back to the title page
    # (the top bar's 戻る, shown with the menu: the menu no longer repeats the series).
    total = len(manifest(server_env, slug, "2"))
    open_from_title_page(page, "2")
    read_through(page, total)
    show_menu(page)
    page.locator(".reader-bar .back-button").click()
    expect(page).to_have_url(title_url)
    kept(page, f"{slug}/2", total)
    context.set_offline(True)
    open_from_title_page(page, "2")
    reads_offline(page, total)

    # Chapter 3, read online, then the browser's back button.
    context.set_offline(False)
    open_page(page, title_url)
    total = len(manifest(server_env, slug, "3"))
    open_from_title_page(page, "3")
    read_through(page, total)
    page.go_back()
    expect(page).to_have_url(title_url)
    kept(page, f"{slug}/3", total)
    context.set_offline(True)
    open_from_title_page(page, "3")
    reads_offline(page, total)


def test_a_chapter_read_online_opens_offline_reloaded_in_place_or_after_closing_the_tab(
    base_url: str, server_env, context: BrowserContext, page: Page
) -> None:
    slug = series_with_chapters(server_env, "rtl", 3)
    # The first visit of this browser: the chapter itself, straight from a link elsewhere.
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    worker_in_control(page)
    read_through(page, total)
    kept(page, f"{slug}/1", total)
    context.set_offline(True)
    page.reload()
    reads_offline(page, total)

    # Another chapter read online, the tab closed, the chapter opened again offline.
    context.set_offline(False)
    total = len(manifest(server_env, slug, "2"))
    open_chapter(page, f"{base_url}/{slug}-ch-2")
    read_through(page, total)
    kept(page, f"{slug}/2", total)
    page.close()
    context.set_offline(True)
    later = context.new_page()
    later.goto(f"{base_url}/{slug}-ch-2")
    reads_offline(later, total)


def test_a_page_never_kept_opened_offline_looks_like_the_site(base_url: str, server_env, context: BrowserContext, page: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 3)
    open_page(page, base_url + manga_url(slug))
    worker_in_control(page)
    header = page.locator("header.site-header")
    expect(header).to_be_visible()
    look = "e => { const s = getComputedStyle(e); return [s.backgroundColor, s.position, s.fontFamily, s.height]; }"
    online_look = header.evaluate(look)

    context.set_offline(True)
    page.goto(f"{base_url}/genres")
    expect(page.locator("h1")).to_have_text(OFFLINE_NOTICE)
    expect(page.locator("body")).to_contain_text(NOT_SAVED)
    expect(header).to_be_visible()
    assert header.evaluate(look) == online_look
    expect(header.locator("a.logo")).to_be_visible()
    # The way to what can be read offline.
    page.get_by_role("link", name="保存した話の一覧へ").click()
    expect(page).to_have_url(f"{base_url}/offline")
