"""オフライン保存 from the title page's lists, in Chromium: a reader saves one
volume and one chapter from their rows, sees them marked 保存済み (after a
reload too), reads the volume offline, and removes it again from its row."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import wait_for_hydration
from tests.e2e.reader_helpers import counter, image_decoded, imported_series, open_chapter, show_menu
from tests.e2e.test_offline import reader_interactive


def row_button(page: Page, label: str):
    return page.locator(".chapter-row", has_text=label).get_by_test_id("chapter-save")


def test_a_volume_and_a_chapter_are_saved_from_their_rows_read_offline_and_removed(
    base_url: str, server_env, context: BrowserContext, page: Page, tmp_path: Path
) -> None:
    slug = imported_series(base_url, server_env, tmp_path / "library")
    title_url = f"{base_url}/manga/{slug}"
    # The reader of a volume offers to save the volume.
    open_chapter(page, f"{base_url}/{slug}-ch-1-vol")
    show_menu(page)
    expect(page.get_by_test_id("offline-save-chapter")).to_have_text("この巻をオフライン保存")

    page.goto(title_url)
    wait_for_hydration(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    volume, chapter = row_button(page, "第1巻"), row_button(page, "第9話")
    expect(volume).to_have_text("第1巻：保存")
    expect(volume).to_be_enabled()

    volume.click()
    expect(volume).to_have_text("第1巻：保存済み")
    expect(volume).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".ant-notification-notice").filter(has_text="第1巻をオフライン保存しました")).to_be_visible()
    expect(chapter).to_have_text("第9話：保存")
    chapter.click()
    expect(chapter).to_have_text("第9話：保存済み")

    # Saved is remembered: the rows say so again after a reload.
    page.reload()
    wait_for_hydration(page)
    expect(volume).to_have_text("第1巻：保存済み")
    expect(chapter).to_have_text("第9話：保存済み")

    # The reader of the volume says it is saved.
    open_chapter(page, f"{base_url}/{slug}-ch-1-vol")
    show_menu(page)
    expect(page.get_by_test_id("offline-save-chapter")).to_have_text("保存済み")

    # Offline: the saved volume reads, every page of it.
    context.set_offline(True)
    page.reload()
    expect(counter(page)).to_have_text("1 / 2")
    reader_interactive(page)
    image_decoded(page, ".reader-stage img[data-page-index='0']")
    page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text("2 / 2")
    image_decoded(page, ".reader-stage img[data-page-index='1']")
    context.set_offline(False)

    # Removed from its row: the row says 保存 again, /offline keeps only the chapter.
    page.goto(title_url)
    wait_for_hydration(page)
    volume.click()
    expect(volume).to_have_text("第1巻：保存")
    expect(volume).to_have_attribute("aria-pressed", "false")
    page.goto(f"{base_url}/offline")
    items = page.get_by_test_id("offline-item")
    expect(items).to_have_count(1)
    expect(items).to_contain_text("第9話")

