"""The card after a series' last chapter: a completed series says so and
offers what to read next; an ongoing one asks the reader to wait for more."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from manga_app.core.phrases import boundaries

from tests.e2e.reader_helpers import last_chapter_of, open_chapter
from tests.e2e.test_appearance import assert_breaks_between_phrases, resize


def _read_to_the_end(page: Page, direction: str) -> None:
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft" if direction == "rtl" else "ArrowRight")


def test_the_last_chapter_of_a_completed_series_says_complete_and_offers_what_to_read_next(
    base_url: str, server_env, page: Page
) -> None:
    slug, url, direction = last_chapter_of(server_env, "completed")
    open_chapter(page, base_url + url)
    _read_to_the_end(page, direction)
    end = page.locator(".reader-end")
    expect(end).to_be_visible()
    expect(end).to_contain_text("完結")
    expect(end).not_to_contain_text("更新をお待ちください")
    picks = end.locator(".reader-end-pick")
    expect(picks.first).to_be_visible()
    hrefs = picks.evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert 1 <= len(hrefs) <= 4 and len(set(hrefs)) == len(hrefs)
    assert all(re.fullmatch(r"/manga/[a-z0-9-]+", href) and href != f"/manga/{slug}" for href in hrefs), hrefs
    picks.first.click()
    expect(page).to_have_url(base_url + hrefs[0])


def test_the_last_chapter_of_an_ongoing_series_asks_to_wait_for_the_next(base_url: str, server_env, page: Page) -> None:
    _, url, direction = last_chapter_of(server_env, "ongoing")
    open_chapter(page, base_url + url)
    _read_to_the_end(page, direction)
    end = page.locator(".reader-end")
    expect(end).to_contain_text("更新をお待ちください")
    expect(end).not_to_contain_text("完結")


def test_the_end_card_and_the_history_shelf_break_titles_between_phrases(
    base_url: str, server_env, page: Page
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    _, url, direction = last_chapter_of(server_env, "completed")
    open_chapter(page, base_url + url)
    _read_to_the_end(page, direction)
    end = page.locator(".reader-end")
    expect(end.locator(".reader-end-pick").first).to_be_visible()
    texts = end.locator(".reader-end-latest, .reader-end-pick-title, .reader-end-title")
    assert texts.count() >= 3
    wrapped = 0
    for width in (1366, 390, 320, 280):  # narrower, so that something wraps
        resize(page, width, 844)
        wrapped += sum(assert_breaks_between_phrases(texts.nth(index)) for index in range(texts.count()))
    assert wrapped > 0, "nothing on the end card was long enough to wrap: the test checks nothing"
    assert end.locator(".reader-end-pick-title wbr, .reader-end-title wbr").count() > 0
    # The series just read is on the history shelf, its title cut the same way.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base_url + "/history")
    title = page.locator(".shelf-title").first
    expect(title).to_be_visible()
    expect(title).to_have_class(re.compile(r"\bphrased\b"))
    assert title.locator("wbr").count() == len(boundaries(title.inner_text()))
    for width in (390, 280):
        resize(page, width, 844)
        assert_breaks_between_phrases(title)
