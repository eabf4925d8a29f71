"""Honest read marks on the title page, in Chromium against the demo library
(a visitor who is not signed in; the account's marks are in
test_accounts.py): a chapter opened and left part-way shows where it was
left ("1/8" and a thin bar), only a chapter read to its last page is 既読."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from manga_app.core import routes
from tests.e2e.conftest import wait_for_hydration
from tests.e2e.reader_helpers import HISTORY_KEY, counter, manifest, open_chapter, series_with_chapters


def _history_at(page: Page, slug: str, number: str, page_index: int) -> None:
    """The series' history (kept by the server in localStorage) names this page."""
    page.wait_for_function(
        """([key, slug, number, index]) => (JSON.parse(localStorage.getItem(key) || '[]'))
             .some(e => e.slug === slug && String(e.chapter) === number && e.page === index)""",
        arg=[HISTORY_KEY, slug, number, page_index],
    )


def _title_page(page: Page, base_url: str, slug: str) -> None:
    page.goto(base_url + routes.manga_url(slug))
    wait_for_hydration(page)
    expect(page.locator(".chapter-row").first).to_be_visible()


def _row(page: Page, number: str):
    return page.locator(f".chapter-row[data-number='{number}']")


def test_a_chapter_left_part_way_shows_its_progress_and_one_read_to_the_end_is_read(
    base_url: str, server_env, page: Page
) -> None:
    slug = series_with_chapters(server_env, "rtl", 3)
    first, second, third = "1", "2", "3"
    totals = {number: len(manifest(server_env, slug, number)) for number in (first, second, third)}

    # Opened and left at page 1.
    open_chapter(page, f"{base_url}/{slug}-ch-{first}")
    expect(counter(page)).to_have_text(f"1 / {totals[first]}")
    _history_at(page, slug, first, 0)

    # Read to the end: the last page, then the end card.
    open_chapter(page, f"{base_url}/{slug}-ch-{second}")
    expect(counter(page)).to_have_text(f"1 / {totals[second]}")
    page.keyboard.press("End")
    expect(counter(page)).to_have_text(f"{totals[second]} / {totals[second]}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-root")).to_have_attribute("data-at-end", "true")
    _history_at(page, slug, second, totals[second] - 1)

    # Left at page 5 (right to left: ArrowLeft turns forward).
    open_chapter(page, f"{base_url}/{slug}-ch-{third}")
    expect(counter(page)).to_have_text(f"1 / {totals[third]}")
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"5 / {totals[third]}")
    _history_at(page, slug, third, 4)

    _title_page(page, base_url, slug)
    expect(_row(page, first).locator(".read-mark")).to_have_count(0)
    expect(_row(page, first).locator(".read-progress")).to_have_text(f"1/{totals[first]}")
    expect(_row(page, first).locator(".read-progress-bar")).to_be_visible()
    expect(_row(page, second).locator(".read-mark")).to_have_text("既読")
    expect(_row(page, second).locator(".read-progress")).to_have_count(0)
    expect(_row(page, third).locator(".read-mark")).to_have_count(0)
    expect(_row(page, third).locator(".read-progress")).to_have_text(f"5/{totals[third]}")
    expect(page.locator(".read-mark")).to_have_count(1)
    # 続きを読む still opens the chapter read last.
    expect(page.get_by_role("link", name=f"続きを読む 第{third}話・5ページ目")).to_be_visible()

    # Going back to page 2 of a finished chapter does not take its mark away.
    open_chapter(page, f"{base_url}/{slug}-ch-{second}")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"2 / {totals[second]}")
    _history_at(page, slug, second, 1)
    _title_page(page, base_url, slug)
    expect(_row(page, second).locator(".read-mark")).to_have_text("既読")
