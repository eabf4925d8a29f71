"""The reader on a slow link (Chromium's own throttling through the DevTools
protocol): the chapter's pages are requested in reading order from the page
on screen, at most three at once."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.reader_helpers import counter, manifest, open_chapter, series

URGENT = 3  # assets/js/reader/queue.js
SLOW_LINK = {"offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 200_000}


def _record_page_requests(page: Page, urls: list[str]) -> list[tuple[str, int]]:
    """("start" | "end", page index) of every request for one of `urls`, in order."""
    events: list[tuple[str, int]] = []
    index_of = {url: index for index, url in enumerate(urls)}

    def seen(kind: str):
        def record(request) -> None:
            path = "/" + request.url.split("/", 3)[-1]
            if path in index_of:
                events.append((kind, index_of[path]))

        return record

    page.on("request", seen("start"))
    page.on("requestfinished", seen("end"))
    page.on("requestfailed", seen("end"))
    return events


def _most_at_once(events: list[tuple[str, int]]) -> int:
    busy = most = 0
    for kind, _ in events:
        busy += 1 if kind == "start" else -1
        most = max(most, busy)
    return most


def _open_on_a_slow_link(page: Page, base_url: str, server_env) -> tuple[list[str], list]:
    """Chapter 1 of a right-to-left series opened on SLOW_LINK: its page
    URLs, and the requests for them as they start and end."""
    slug = series(server_env, "rtl")
    urls = [item["avif"] for item in manifest(server_env, slug, "1")]  # Chromium shows AVIF
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_LINK)
    events = _record_page_requests(page, urls)
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    return urls, events


def test_on_a_slow_link_pages_load_in_reading_order_three_at_a_time(base_url: str, server_env, page: Page) -> None:
    urls, events = _open_on_a_slow_link(page, base_url, server_env)
    expect(counter(page)).to_have_text(f"1 / {len(urls)}")
    page.wait_for_function(
        "urls => urls.every(u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u)))", arg=urls, timeout=90_000
    )
    started = list(dict.fromkeys(index for kind, index in events if kind == "start"))
    # The page on screen and the next two (the reader's urgent ones) one at a
    # time, in order: each starts only once the one before it has arrived.
    assert started[:URGENT] == list(range(URGENT)), started
    for index in range(1, URGENT):
        assert events.index(("end", index - 1)) < events.index(("start", index)), events
    # The rest in batches of up to three, in reading order as batches: the
    # reader asks for a batch's pages in order, but Chromium may send requests
    # asked for in the same moment in either order, so a page may pass only
    # pages of its own batch (never one three or more ahead of it).
    assert sorted(started) == list(range(len(urls))), started
    for position, index in enumerate(started):
        assert index < position + 3, started
    assert _most_at_once(events) <= 3, events


def test_a_page_turned_to_on_a_slow_link_comes_before_the_rest(base_url: str, server_env, page: Page) -> None:
    urls, events = _open_on_a_slow_link(page, base_url, server_env)
    page.keyboard.press("End")  # the last page, wanted now
    expect(counter(page)).to_have_text(f"{len(urls)} / {len(urls)}")
    last = len(urls) - 1
    page.wait_for_function(
        "s => { const e = document.querySelector(s); return e && e.complete && e.naturalWidth > 0 }",
        arg=f".reader-stage img[data-page-index='{last}']",
        timeout=90_000,
    )
    # Never more than three at once, even when the reader jumps ahead.
    assert _most_at_once(events) <= 3, events
