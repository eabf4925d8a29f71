"""The reader keeps the visitor's place and counts views honestly, in
Chromium against the demo library: resume (paged, vertical, inside a tall
page, any chapter, at once on reload), the page kept across a resize,
loading that starts where the visitor is, preloads dropped on leaving, a
chapter left before it arrived, and views counted on the server."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import wait_for_hydration
from tests.e2e.reader_helpers import (
    chapter_numbers,
    chapter_views,
    choose,
    counter,
    db,
    manifest,
    manifest_path,
    open_chapter,
    series,
    series_with_chapters,
    show_menu,
    stored_position,
    write_manifest,
)

JST = timezone(timedelta(hours=9))


def until(page: Page, condition: Callable[[], bool], what: str) -> None:
    """Waits for a condition only Python can check (routes, the database)."""
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        page.wait_for_timeout(50)


def _wait_stored(page: Page, slug: str, number: str, page_index: int, offset: tuple[float, float] = (0.0, 1.0)) -> None:
    page.wait_for_function(
        """([key, index, low, high]) => {
             const item = (JSON.parse(localStorage.getItem('manga_reader_positions') || 'null') || {items: {}}).items[key];
             return !!item && item[0] === index && item[1] >= low && item[1] <= high;
           }""",
        arg=[f"{slug}/{number}", page_index, *offset],
    )


# ---- resume -----------------------------------------------------------------


def test_paged_reading_resumes_on_the_same_page_after_a_reload(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"4 / {total}")
    # No waiting for the server: the browser has it already.
    page.reload()
    wait_for_hydration(page)
    expect(counter(page)).to_have_text(f"4 / {total}")
    expect(page.locator(".reader-stage img[data-page-index='3']")).to_be_visible()
    # The series' history (title page, /history) hears of it too.
    page.wait_for_function(
        "slug => JSON.parse(localStorage.getItem('manga_reading_history') || '[]').some(e => e.slug === slug && e.page === 3)",
        arg=slug,
    )


def test_vertical_reading_resumes_inside_a_tall_page_after_a_reload(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    second = page.locator(".reader-strip img").nth(1)
    top = second.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    height = second.evaluate("e => e.getBoundingClientRect().height")
    target = top + height * 0.4
    page.evaluate("y => window.scrollTo(0, y)", target)
    expect(page.locator(".reader-root")).to_have_attribute("data-page", "1")
    # Reloaded at once: the position is written as the page is left.
    page.reload()
    wait_for_hydration(page)
    expect(page.locator(".reader-root")).to_have_attribute("data-page", "1")
    page.wait_for_function("y => Math.abs(window.scrollY - y) < 8", arg=target)


def test_paged_reading_resumes_inside_a_tall_page(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    choose(page, ("読み方", "ページめくり"), ("画像の大きさ", "幅に合わせる"))
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_have_text(f"2 / {total}")
    stage = page.locator(".reader-stage")
    stage.evaluate("s => { s.scrollTop = Math.round(s.scrollHeight * 0.25) }")
    _wait_stored(page, slug, "1", 1, (0.24, 0.26))
    wanted = stage.evaluate("s => s.scrollTop")
    page.reload()
    wait_for_hydration(page)
    expect(counter(page)).to_have_text(f"2 / {total}")
    page.wait_for_function("y => Math.abs(document.querySelector('.reader-stage').scrollTop - y) <= 2", arg=wanted)
    # Turning to another page and back starts that page at its top.
    page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"1 / {total}")
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_have_text(f"2 / {total}")
    expect(stage).to_have_js_property("scrollTop", 0)


def test_a_chapter_that_is_not_the_series_last_reopens_where_it_was_left(base_url: str, server_env, page: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    first, second = chapter_numbers(server_env, slug)[:2]
    total = len(manifest(server_env, slug, first))
    open_chapter(page, f"{base_url}/{slug}-ch-{first}")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"4 / {total}")
    open_chapter(page, f"{base_url}/{slug}-ch-{second}")
    page.keyboard.press("ArrowLeft")
    # The series' history now points at the second chapter...
    page.wait_for_function(
        "([slug, n]) => JSON.parse(localStorage.getItem('manga_reading_history') || '[]').some(e => e.slug === slug && e.chapter === n && e.page === 1)",
        arg=[slug, second],
    )
    # ...and the first still opens where it was left (here from the selector).
    show_menu(page)
    page.get_by_role("combobox", name="話を選ぶ").select_option(index=0)
    expect(page).to_have_url(re.compile(rf"/{slug}-ch-{re.escape(first)}(-[a-z0-9-]+)?$"))
    expect(counter(page)).to_have_text(f"4 / {total}")
    open_chapter(page, f"{base_url}/{slug}-ch-{second}")
    expect(counter(page)).to_have_text(f"2 / {len(manifest(server_env, slug, second))}")


def test_a_resize_keeps_the_page_and_the_place_in_it(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    third = page.locator(".reader-strip img").nth(2)
    page.evaluate(
        "e => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY + e.getBoundingClientRect().height * 0.5)",
        third.element_handle(),
    )
    expect(page.locator(".reader-root")).to_have_attribute("data-page", "2")
    for size in ({"width": 700, "height": 500}, {"width": 390, "height": 844}):  # turned sideways, and back
        page.set_viewport_size(size)
        # The browser fires `resize` in its next frame, after the pages were
        # already laid out at the new width: wait for the reader to answer.
        expect(page.locator(".reader-root")).to_have_attribute("data-page", "2")
        _wait_for_reading_line(page, third, 0.5)


def _wait_for_reading_line(page: Page, image, share: float) -> None:
    """Until the reading line crosses `image` at `share` of its height."""
    script = "([e, share]) => Math.abs((2 - e.getBoundingClientRect().top) / e.getBoundingClientRect().height - share) < 0.01"
    try:
        page.wait_for_function(script, arg=[image.element_handle(), share], timeout=5000)
    except PlaywrightTimeout:
        line = image.evaluate("e => (2 - e.getBoundingClientRect().top) / e.getBoundingClientRect().height")
        raise AssertionError(f"the reading line is at {line:.3f} of the page, not {share}") from None


# ---- loading where the visitor is ----------------------------------------------


def test_resuming_deep_in_a_strip_does_not_download_the_pages_above_first(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    number = chapter_numbers(server_env, slug)[0]
    path = manifest_path(server_env, slug, number)
    original = path.read_bytes()
    base = manifest(server_env, slug, number)
    # A long strip with distinct URLs (the media server ignores the query string).
    pages = [{**base[i % len(base)], "avif": f"{base[i % len(base)]['avif']}?s={i}"} for i in range(14)]
    write_manifest(server_env, slug, number, pages)
    start = 11
    # What the reader leaves in a browser that read this chapter down to page 12.
    saved = json.dumps({"v": 1, "items": {f"{slug}/{number}": [start, 0, 1767225600000]}})
    page.add_init_script(f"localStorage.setItem('manga_reader_positions', {json.dumps(saved)});")
    # ...and its cookie, which the first request carries: the server draws that page.
    page.context.add_cookies([{"name": "manga_reader_first", "value": f"0:{slug}/{number}:{start}", "url": base_url}])
    try:
        open_chapter(page, f"{base_url}/{slug}-ch-{number}")
        expect(page.locator(".reader-root")).to_have_attribute("data-page", str(start))
        until(page, lambda: _requested(page, pages[start]["avif"]), "the resumed page is requested")
        # Far above the resumed page: nothing was downloaded.
        assert not any(_requested(page, item["avif"]) for item in pages[: start - 3])
    finally:
        path.write_bytes(original)


def _requested(page: Page, url: str) -> bool:
    return page.evaluate("u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u))", url)


def test_leaving_a_chapter_cancels_its_unfinished_preloads(base_url: str, server_env, page: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    pages = manifest(server_env, slug, chapter_numbers(server_env, slug)[0])
    first = chapter_numbers(server_env, slug)[0]
    ahead = {item["avif"] for item in pages[1:]} - {pages[0]["avif"]}  # Chromium shows AVIF
    held = []
    failed: list[str] = []

    def hold(route) -> None:
        if any(route.request.url.endswith(url) for url in ahead):
            held.append(route)  # never answered: the preload stays unfinished
        else:
            route.continue_()

    page.route("**/media/**", hold)
    page.on("requestfailed", lambda request: failed.append(request.url))
    try:
        open_chapter(page, f"{base_url}/{slug}-ch-{first}")
        # The next page, alone (the reader's loading queue: the pages on screen and next load one at a time).
        until(page, lambda: len(held) == 1, "the next page is being preloaded")
        waiting = [route.request.url for route in held]
        show_menu(page)
        page.get_by_role("combobox", name="話を選ぶ").select_option(index=1)
        expect(page.locator(".reader-counter")).to_have_text(re.compile(r"^1 / "))
        until(page, lambda: all(url in failed for url in waiting), "the preloads are cancelled")
    finally:
        page.unroute("**/media/**")
        for route in held:
            with contextlib.suppress(Exception):  # already dropped by the page
                route.abort()


def test_a_chapter_left_before_its_pages_arrived_is_neither_shown_nor_counted(base_url: str, server_env, page: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    start, skipped = chapter_numbers(server_env, slug)[:2]
    path = manifest_path(server_env, slug, skipped)
    original = path.read_bytes()
    base = manifest(server_env, slug, skipped)
    # A very long page list: the server is still reading it when the visitor
    # has already gone back.
    write_manifest(server_env, slug, skipped, [{**base[i % len(base)], "url": f"{base[i % len(base)]['url']}?n={i}"} for i in range(60000)])
    views_before = chapter_views(server_env, slug, skipped)
    try:
        open_chapter(page, f"{base_url}/{slug}-ch-{start}")
        show_menu(page)
        page.get_by_role("combobox", name="話を選ぶ").select_option(index=1)
        expect(page.locator(".reader-status[role=status]")).to_be_visible()  # the skipped chapter is loading
        page.go_back()
        expect(page).to_have_url(re.compile(rf"/{slug}-ch-{re.escape(start)}(-[a-z0-9-]+)?$"))
        expect(page.locator(".reader-root img.reader-page").first).to_be_visible()
        # Going back cancelled the opening that was still fetching: it is over
        # now, and it left nothing behind.
        page.wait_for_function(
            "([slug, n]) => JSON.parse(localStorage.getItem('manga_reading_history') || '[]').some(e => e.slug === slug && e.chapter === n)",
            arg=[slug, start],
        )
        entry = next(item for item in page.evaluate("JSON.parse(localStorage.getItem('manga_reading_history'))") if item["slug"] == slug)
        assert skipped not in entry["read"]
        assert chapter_views(server_env, slug, skipped) == views_before
        assert not page.evaluate("() => performance.getEntriesByType('resource').some(r => r.name.includes('?n='))")
        expect(page.locator(".reader-counter")).to_have_text(f"1 / {len(manifest(server_env, slug, start))}")
    finally:
        path.write_bytes(original)


# ---- views ------------------------------------------------------------------


def _wait_views(server_env, slug: str, number: str, expected: int, page: Page | None = None) -> None:
    """Polls the database (the count is written just after the pages are shown).

    With a `page` whose socket the test routes, it waits in Playwright: the
    sync API runs a route's handlers only inside its own calls, so a
    `time.sleep` would hold back the server's answers it forwards."""
    deadline = time.monotonic() + 20
    while chapter_views(server_env, slug, number) < expected and time.monotonic() < deadline:
        page.wait_for_timeout(50) if page is not None else time.sleep(0.05)
    assert chapter_views(server_env, slug, number) == expected


def _reload_reader(page: Page) -> None:
    page.reload()
    wait_for_hydration(page)
    expect(page.locator(".reader-root img.reader-page").first).to_be_visible()


def _another_visitor_makes_it(browser: Browser, server_env, slug: str, number: str, url: str, expected: int) -> None:
    """Another browser is another visitor: by the time its opening counts,
    every earlier one has long been decided, and the count is `expected`."""
    other = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    try:
        open_chapter(other.new_page(), url)
        _wait_views(server_env, slug, number, expected)
    finally:
        other.close()


def test_a_view_counts_once_per_visitor_and_day_whatever_the_tabs_reloads_and_storage(
    base_url: str, server_env, browser: Browser, page: Page
) -> None:
    slug = series(server_env, "vertical")
    number = chapter_numbers(server_env, slug)[1]
    url = f"{base_url}/{slug}-ch-{number}"
    before = chapter_views(server_env, slug, number)
    open_chapter(page, url)
    _wait_views(server_env, slug, number, before + 1)
    # A reload, a second tab, cleared storage: the same visitor.
    _reload_reader(page)
    second_tab = page.context.new_page()
    open_chapter(second_tab, url)
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear() }")
    _reload_reader(page)
    _another_visitor_makes_it(browser, server_env, slug, number, url, before + 2)
    # The next day (the marks of today made yesterday's), the visitor counts again.
    today = datetime.now(UTC).astimezone(JST).date()
    with db(server_env) as connection:
        connection.execute(
            "update chapter_view set day = ? where chapter_id = (select chapter.id from chapter join series on series.id = chapter.series_id "
            "where series.slug = ? and chapter.number_hundredths = ?)",
            ((today - timedelta(days=1)).isoformat(), slug, round(float(number) * 100)),
        )
    _reload_reader(page)
    _wait_views(server_env, slug, number, before + 3)


def _without_visitor_ids(message: str | bytes) -> str | bytes:
    """A socket.io event of the server's with every state's visitor id left
    out of its changes: what the browser would have had, had it reloaded
    before those changes arrived."""
    start = message.find("[") if isinstance(message, str) else -1
    if start < 0 or not message.startswith("42"):
        return message
    name, *args = json.loads(message[start:])
    for update in args:
        for changes in (update.get("delta") or {}).values() if isinstance(update, dict) else ():
            for key in [key for key in changes if key.startswith("visitor_id")]:
                del changes[key]
    return message[:start] + json.dumps([name, *args], ensure_ascii=False)


def test_a_reload_before_the_servers_answers_arrive_counts_once(base_url: str, server_env, browser: Browser) -> None:
    slug = series(server_env, "vertical")
    number = chapter_numbers(server_env, slug)[-1]
    url = f"{base_url}/{slug}-ch-{number}"
    before = chapter_views(server_env, slug, number)
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()

        def held_back(socket) -> None:
            server = socket.connect_to_server()
            server.on_message(lambda message: socket.send(_without_visitor_ids(message)))

        page.route_web_socket(re.compile(r"/_event/"), held_back)
        open_chapter(page, url)
        _wait_views(server_env, slug, number, before + 1, page)
        _reload_reader(page)
        _another_visitor_makes_it(browser, server_env, slug, number, url, before + 2)
    finally:
        context.close()


def test_the_position_is_kept_per_chapter_in_the_browser(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    _wait_stored(page, slug, "1", 2)
    saved = stored_position(page, slug, "1")
    assert saved[0] == 2 and saved[2] > 0
