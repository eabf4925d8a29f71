"""Reading without a connection, in Chromium: a signed-in reader saves a
chapter (オフライン保存), goes offline, reloads and reads every page of it
from the service worker's copy; its title page and /offline open too, and
any other page says it needs a connection; back online, the reading done
offline reaches the account (Firebase Auth emulator, real database)."""

from __future__ import annotations

import subprocess
import time
import uuid
from pathlib import Path

import httpx
from playwright.sync_api import BrowserContext, Page, expect

from manga_app.core.routes import manga_url
from tests.e2e.conftest import ROOT, WEB_DIR
from tests.e2e.reader_helpers import (
    chapter_numbers,
    counter,
    image_decoded,
    imported_series,
    manifest,
    open_chapter,
    series_of,
    series_with_chapters,
    show_menu,
)
from tests.e2e.test_accounts import _db, device, header_menu, open_page, paged_series, sign_in_with_google  # noqa: F401

OFFLINE_NOTICE = "オフラインです。保存した話だけ読めます"
OUTBOX_KEY = "manga_offline_progress"


def series_title(server_env, slug: str) -> str:
    with _db(server_env) as db:
        return db.execute("select title from series where slug = ?", (slug,)).fetchone()[0]


def account_progress(server_env, email: str, slug: str) -> tuple[int, int] | None:
    """(page, finished) of chapter 1 of `slug` in the account, or None."""
    query = """select p.page, p.finished from reading_progress p join user_account u on u.uid = p.uid
               where u.email = ? and p.series_slug = ? and p.chapter_hundredths = 100"""
    with _db(server_env) as db:
        return db.execute(query, (email, slug)).fetchone()


def wait_for_account(page: Page, server_env, email: str, slug: str, expected: tuple[int, int]) -> None:
    """Polls the database, letting Playwright serve the page's requests meanwhile
    (the test's routes answer them: a plain sleep would stall the page)."""
    deadline = time.monotonic() + 30
    found = None
    while time.monotonic() < deadline:
        found = account_progress(server_env, email, slug)
        if found == expected:
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"the account never got {expected} for {slug} (last: {found})")


def reader_interactive(page: Page) -> None:
    """The reader answers keys (the app ran), offline as online."""
    expect(page.locator(".reader-root")).to_have_attribute("data-interactive", "true")


def worker_in_control(page: Page) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_a_saved_chapter_reads_offline_and_the_reading_reaches_the_account_once_online(
    base_url: str, server_env, device: BrowserContext, page: Page, paged_series: str
) -> None:
    slug = paged_series
    email, name = f"offline-{uuid.uuid4().hex[:6]}@example.com", "電車 花子"
    title_url = base_url + manga_url(slug)
    chapter_path = f"/{slug}-ch-1"
    total = len(manifest(server_env, slug, "1"))
    assert total >= 3, "chapter 1 has pages to turn"

    open_page(page, title_url)
    header_menu(page)
    sign_in_with_google(page, email=email, name=name)
    expect(page.get_by_test_id("account-name")).to_have_text(name)
    title = series_title(server_env, slug)
    # Followed: this series, and another of which nothing will be saved.
    other = next(found for found in series_of(server_env, "rtl", 2) if found != slug)
    titles = []
    for found in (other, slug):
        open_page(page, base_url + manga_url(found))
        # The series' own heading, not the one of the page before (a tab's
        # earlier state arrives again as the app connects, for a moment).
        titles.append(series_title(server_env, found))
        expect(page.locator("h1")).to_have_text(titles[-1])
        follow = page.locator(".title-actions").get_by_test_id("follow-button")
        follow.click()
        expect(follow).to_have_text("フォロー中")
    other_title = titles[0]

    # Online: open the chapter and save it from the reader's menu.
    open_chapter(page, base_url + chapter_path)
    worker_in_control(page)
    wait_for_account(page, server_env, email, slug, (0, 0))
    show_menu(page)
    save = page.get_by_test_id("offline-save-chapter")
    expect(save).to_have_text("この話をオフライン保存")
    save.click()
    expect(save).to_have_text("保存済み")
    # The account's shelves, seen online (and so remembered for offline).
    page.goto(f"{base_url}/library")
    expect(page.get_by_test_id("library-item")).to_have_count(2)
    page.goto(f"{base_url}/history")
    expect(page.get_by_test_id("history-item")).to_have_count(1)
    # (The history shows before the sign-in is known: wait until it is remembered.)
    page.wait_for_function(
        "() => { const shelves = (JSON.parse(localStorage.getItem('manga_offline_shelves') || 'null') || {items: {}}).items;"
        " return shelves.last && (shelves[shelves.last].history || []).length === 1; }"
    )
    page.goto(base_url + chapter_path)

    # Offline: the chapter reloads from the saved copy, every page of it.
    device.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("offline-banner")).to_contain_text(OFFLINE_NOTICE)
    expect(counter(page)).to_have_text(f"1 / {total}")
    reader_interactive(page)
    for index in range(total):
        expect(counter(page)).to_have_text(f"{index + 1} / {total}")
        image_decoded(page, f".reader-stage img[data-page-index='{index}']")
        if index + 1 < total:
            page.keyboard.press("ArrowLeft")
    # Turning pages recorded where the reader is, to be sent once online.
    page.wait_for_function(
        "([key, path, last]) => { const items = (JSON.parse(localStorage.getItem(key) || 'null') || {items: {}}).items;"
        " return items[path] && items[path].page === last; }",
        arg=[OUTBOX_KEY, chapter_path, total - 1],
    )
    assert account_progress(server_env, email, slug) == (0, 0), "nothing reached the server while offline"

    # The series' title page opens offline, cover included.
    page.goto(title_url)
    expect(page.locator("h1")).to_have_text(title)
    # The AVIF its <picture> takes in Chromium, kept with the chapter.
    assert image_decoded(page, "img.title-cover").endswith(".avif")
    expect(page.get_by_test_id("offline-banner")).to_be_visible()

    # /offline lists the saved chapter.
    page.goto(f"{base_url}/offline")
    item = page.get_by_test_id("offline-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("第1話")
    expect(item).to_contain_text(f"{total}ページ")

    # /history and /library show the account's lists as last seen online;
    # only what was saved opens.
    page.goto(f"{base_url}/history")
    history = page.get_by_test_id("offline-account-history")
    expect(history).to_contain_text("時点のアカウントの閲覧履歴を表示しています")
    expect(history).to_contain_text(title)
    history.get_by_role("link", name="続きを読む").click()
    expect(counter(page)).to_have_text(f"{total} / {total}")
    page.goto(f"{base_url}/library")
    library = page.get_by_test_id("offline-account-library")
    expect(library).to_contain_text("時点のフォロー中の作品を表示しています")
    expect(library.get_by_role("link", name=title)).to_be_visible()
    expect(library).to_contain_text(other_title)
    expect(library.get_by_role("link", name=other_title)).to_have_count(0)

    # A page that was never saved says it needs a connection.
    page.goto(f"{base_url}/genres")
    expect(page.locator("h1")).to_have_text(OFFLINE_NOTICE)

    # Back online: the reading done offline reaches the account, read to the end.
    page.goto(f"{base_url}/offline")
    device.set_offline(False)
    wait_for_account(page, server_env, email, slug, (total - 1, 1))
    page.wait_for_function(f"() => Object.keys((JSON.parse(localStorage.getItem('{OUTBOX_KEY}') || 'null') || {{items: {{}}}}).items).length === 0")
    expect(page.get_by_test_id("offline-banner")).to_have_count(0)


def test_the_next_unread_chapters_are_saved_from_the_title_page_and_deleted_on_offline(
    base_url: str, server_env, page: Page
) -> None:
    slug = series_with_chapters(server_env, "rtl", 3)
    numbers = sorted(chapter_numbers(server_env, slug), key=float)
    open_page(page, base_url + manga_url(slug))
    worker_in_control(page)
    save = page.get_by_test_id("offline-save")
    save.get_by_label("保存する話数").select_option("3")
    save.get_by_test_id("offline-save-next").click()
    expect(page.locator(".ant-notification-notice").filter(has_text="3話をオフライン保存しました")).to_be_visible()

    page.goto(f"{base_url}/offline")
    items = page.get_by_test_id("offline-item")
    expect(items).to_have_count(3)
    for number in numbers[:3]:
        pages = len(manifest(server_env, slug, number))
        expect(items.filter(has_text=f"第{number}話")).to_contain_text(f"{pages}ページ")
    items.filter(has_text=f"第{numbers[0]}話").get_by_test_id("offline-delete").click()
    expect(items).to_have_count(2)
    page.get_by_test_id("offline-delete-all-open").click()
    page.get_by_test_id("offline-delete-all").click()
    expect(page.get_by_test_id("offline-empty")).to_be_visible()
    # Nothing of them is left in the worker's cache.
    left = page.evaluate("async () => (await (await caches.open('manga-offline-v1')).keys()).map((r) => new URL(r.url).pathname)")
    assert not [path for path in left if path.startswith("/media/") or path.startswith(f"/{slug}-ch-")], left


def test_the_size_limit_is_checked_and_kept(base_url: str, page: Page) -> None:
    open_page(page, f"{base_url}/offline")
    limit = page.get_by_test_id("offline-limit")
    expect(limit).to_have_value("300")
    limit.fill("0")
    page.get_by_role("button", name="変更").click()
    expect(page.get_by_role("alert")).to_have_text("1〜100000 の数字（MB）を入れてください")
    limit.fill("50")
    page.get_by_role("button", name="変更").click()
    expect(page.get_by_role("alert")).to_have_count(0)
    page.reload()
    expect(page.get_by_test_id("offline-limit")).to_have_value("50")


def test_a_new_build_updates_the_worker_and_keeps_the_saved_chapters(base_url: str, server_env, context: BrowserContext, page: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 1)
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    worker_in_control(page)
    show_menu(page)
    page.get_by_test_id("offline-save-chapter").click()
    expect(page.get_by_test_id("offline-save-chapter")).to_have_text("保存済み")
    shells = "async () => (await caches.keys()).filter((name) => name.startsWith('manga-shell-'))"
    (old,) = page.evaluate(shells)
    # A built file the saved page loads, which the next build will not have.
    used = page.evaluate("() => [...document.querySelectorAll('script[src], link[href]')]"
                         ".map((e) => e.getAttribute('src') || e.getAttribute('href')).find((u) => /^[/]assets[/].*reader.*[.]js$/.test(u))")
    client = ROOT / WEB_DIR / "build" / "client"
    update = "async () => { const r = await navigator.serviceWorker.getRegistration(); await r.update().catch(() => {}); }"
    settled = "async () => { const r = await navigator.serviceWorker.getRegistration(); return !r.installing && !r.waiting; }"

    # A new build whose files cannot all be fetched: the old worker and its cache stay.
    added = client / "assets" / f"update-{uuid.uuid4().hex[:8]}.js"
    added.write_text("export {};\n")
    refused = []
    context.route(f"**/assets/{added.name}", lambda route: refused.append(1) or route.fulfill(status=500, body=""))
    moved = client.parent / Path(used).name
    try:
        page.evaluate(update)
        deadline = time.monotonic() + 30
        while not refused:  # (Playwright answers the worker's requests meanwhile)
            assert time.monotonic() < deadline, "the new worker never tried to install"
            page.wait_for_timeout(100)
        page.wait_for_function(settled)
        assert page.evaluate(shells) == [old]
        context.unroute(f"**/assets/{added.name}")

        # It completes: the new shell replaces the old one, carrying over the
        # built files saved pages still load.
        (client / used.lstrip("/")).rename(moved)
        page.evaluate(update)
        page.wait_for_function(f"async () => {{ const names = await ({shells})(); return names.length === 1 && names[0] !== {old!r}; }}")
        assert page.evaluate("async (url) => !!(await caches.match(url))", used)
    finally:
        added.unlink()
        if moved.exists():
            moved.rename(client / used.lstrip("/"))

    # The saved chapter still reads offline, through the new worker.
    context.set_offline(True)
    page.reload()
    expect(counter(page)).to_have_text(f"1 / {total}")
    reader_interactive(page)
    image_decoded(page, ".reader-stage img[data-page-index='0']")
    page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"2 / {total}")
    image_decoded(page, ".reader-stage img[data-page-index='1']")


def test_a_save_that_fails_says_so_and_leaves_nothing_behind(base_url: str, server_env, context: BrowserContext, page: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 1)
    last = manifest(server_env, slug, "1")[-1]["avif"]  # the file Chromium shows and keeps
    context.route(f"**{last}", lambda route: route.fulfill(status=500, body=""))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    worker_in_control(page)
    show_menu(page)
    save = page.get_by_test_id("offline-save-chapter")
    save.click()
    expect(page.locator(".ant-notification-notice").filter(has_text="オフライン保存できませんでした")).to_be_visible()
    expect(save).to_have_text("この話をオフライン保存")
    # What is kept is the chapter as opened (the pages seen), nothing of the failed save.
    left = page.evaluate("async () => (await (await caches.open('manga-offline-v1')).keys()).map((r) => new URL(r.url).pathname)")
    index = page.evaluate("JSON.parse(localStorage.getItem('manga_offline_chapters') || '{\"items\": {}}').items")
    assert [entry["saved"] for entry in index.values()] in ([], [False])
    listed = {url for entry in index.values() for url in [*entry["paths"], entry["seriesUrl"], *entry["files"], *entry["extras"]]}
    assert last not in left
    assert not [path for path in left if (path.startswith("/media/") or path.startswith(f"/{slug}-ch-") or path.startswith("/manga/")) and path not in listed], left


def test_a_chapter_unpublished_since_it_was_saved_is_removed_with_a_note(
    base_url: str, server_env, context: BrowserContext, page: Page, tmp_path: Path
) -> None:
    slug = imported_series(base_url, server_env, tmp_path / "library")
    chapter = f"/{slug}-ch-9"
    open_chapter(page, base_url + chapter)
    worker_in_control(page)
    show_menu(page)
    page.get_by_test_id("offline-save-chapter").click()
    expect(page.get_by_test_id("offline-save-chapter")).to_have_text("保存済み")
    page.close()
    # The operator removes the chapter from the site (and so from its published files).
    subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "remove", slug, "9"],
                   cwd=ROOT, env=server_env, check=True, capture_output=True)
    deadline = time.monotonic() + 30  # the site picks up the new catalogue within seconds
    while httpx.head(base_url + chapter).status_code != 404:
        assert time.monotonic() < deadline, f"{chapter} is still served"
        time.sleep(0.5)
    later = context.new_page()  # the next visit (a new tab session)
    open_page(later, f"{base_url}/offline")
    # Checked a few seconds after the page opened, so as not to compete with it.
    expect(later.get_by_test_id("offline-note")).to_contain_text("は公開が終了したため、保存から削除しました。", timeout=20_000)
    expect(later.get_by_test_id("offline-empty")).to_be_visible()
    left = later.evaluate("async () => (await (await caches.open('manga-offline-v1')).keys()).map((r) => new URL(r.url).pathname)")
    assert not [path for path in left if path.startswith("/media/") or path.startswith(f"/{slug}-ch-")], left
