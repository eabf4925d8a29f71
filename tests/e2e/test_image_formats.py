"""Pages in the best format the browser decodes (issue 37), in Chromium:
AVIF where it decodes AVIF, JPEG (WebP for the data saver) in a browser
that does not, and a first visit straight to a chapter never fetches a
page twice in two formats. The demo store was imported with AVIF copies."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import guarded_context, wait_for_hydration
from tests.e2e.reader_helpers import image_decoded, manifest, open_chapter, series

# What a browser without AVIF answers: its decoder refuses the test image.
NO_AVIF = """
const decode = window.createImageBitmap;
window.createImageBitmap = (source, ...rest) =>
  source && source.type === "image/avif" ? Promise.reject(new DOMException("no AVIF", "InvalidStateError"))
    : decode.call(window, source, ...rest);
"""
FIRST_PAGE = ".reader-root img.reader-page[data-page-index='0']"


def _format_cookie(page: Page) -> str:
    page.wait_for_function("() => document.cookie.includes('manga_img=')")
    return next(c["value"] for c in page.context.cookies() if c["name"] == "manga_img")


def _first_page_src(page: Page) -> str:
    image_decoded(page, FIRST_PAGE)
    return page.locator(FIRST_PAGE).get_attribute("src")


def test_a_browser_that_decodes_avif_reads_avif_pages(browser: Browser, base_url: str, server_env) -> None:
    slug = series(server_env, "rtl")
    [first] = manifest(server_env, slug, "1")[:1]
    assert first["avif"].endswith("-w1200.avif") and first["url"].endswith("-w1200.jpg")
    with guarded_context(browser) as context:
        page = context.new_page()
        page.goto(base_url + "/")
        wait_for_hydration(page)
        assert _format_cookie(page) == "avif"
        # The server's own HTML names the AVIF page, and the browser shows it
        html = page.request.get(f"{base_url}/{slug}-ch-1").text()
        assert first["avif"] in html and first["url"] not in html
        open_chapter(page, f"{base_url}/{slug}-ch-1")
        assert _first_page_src(page) == first["avif"]
        answer = page.request.get(base_url + first["avif"])
        assert answer.headers["content-type"] == "image/avif" and "immutable" in answer.headers["cache-control"]
        page.screenshot(path=str(server_env["DATA_DIR"]) + "/avif-reader.png")


def test_a_browser_without_avif_gets_jpeg_pages(browser: Browser, base_url: str, server_env) -> None:
    slug = series(server_env, "rtl")
    [first] = manifest(server_env, slug, "1")[:1]
    with guarded_context(browser) as context:
        context.add_init_script(NO_AVIF)
        page = context.new_page()
        page.goto(base_url + "/")
        wait_for_hydration(page)
        assert _format_cookie(page) == "jpeg"
        open_chapter(page, f"{base_url}/{slug}-ch-1")
        assert _first_page_src(page) == first["url"]
        html = page.request.get(f"{base_url}/{slug}-ch-1").text()
        assert first["url"] in html and ".avif" not in html


def test_a_first_visit_straight_to_a_chapter_fetches_each_page_once(browser: Browser, base_url: str, server_env) -> None:
    slug = series(server_env, "rtl")
    with guarded_context(browser) as context:
        page = context.new_page()
        fetched: list[str] = []
        page.on("request", lambda request: fetched.append(request.url) if "/media/" in request.url else None)
        # No cookie yet: the server draws JPEG pages, and the app keeps them
        open_chapter(page, f"{base_url}/{slug}-ch-1")
        image_decoded(page, FIRST_PAGE)
        page.wait_for_load_state("networkidle")  # the app connected and loaded the pages after the first
        keys = [re.search(r"/([0-9a-f]{64})-w\d+\.", url).group(1) for url in fetched if re.search(r"-w\d+\.", url)]
        assert keys and len(keys) == len(set(keys)), fetched
        assert _first_page_src(page).endswith(".jpg")
        # From the next page load on, AVIF
        page.goto(base_url + "/")
        wait_for_hydration(page)
        assert _format_cookie(page) == "avif"
        open_chapter(page, f"{base_url}/{slug}-ch-1")
        assert _first_page_src(page).endswith(".avif")
