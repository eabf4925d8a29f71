"""Pages and covers in the best format the browser shows (issue 37), in
Chromium, which shows AVIF: a fresh browser gets every page it reads (at
the reader's width and the data saver's) and the covers as AVIF, the first
page fetched once, by its preload and its <picture> alike. The server's HTML
keeps the JPEG/WebP fallback in each <img> for a browser without AVIF."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import httpx
from playwright.sync_api import Browser, Page, expect

from manga_app.core.routes import manga_url
from tests.e2e.conftest import guarded_context, wait_for_hydration
from tests.e2e.reader_helpers import choose, image_decoded, manifest, open_chapter, series

FIRST = '.reader-root img[data-page-index="0"]'


def _media_types(page: Page) -> dict[str, str]:
    """Every /media/ response of the page, as path -> Content-Type."""
    seen: dict[str, str] = {}
    page.on("response", lambda r: "/media/" in r.url and seen.__setitem__(r.url.split("://", 1)[1].split("/", 1)[1], r.headers.get("content-type", "")))
    return seen


def _path(url: str) -> str:
    return url.split("://", 1)[-1].split("/", 1)[1] if "://" in url else url.lstrip("/")


def _shown(page: Page, selector: str) -> str:
    """The path of the file the first match shows, once decoded."""
    return urlsplit(image_decoded(page, selector)).path


def test_a_fresh_browser_reads_the_pages_and_covers_as_avif(base_url: str, server_env, browser: Browser) -> None:
    slug = series(server_env, "rtl")
    pages = manifest(server_env, slug, "1")
    assert all(item.get("avif") and item.get("saver_avif") for item in pages), pages[0]
    with guarded_context(browser) as context:
        page = context.new_page()
        types = _media_types(page)
        open_chapter(page, f"{base_url}/{slug}-ch-1")
        assert _shown(page, FIRST) == "/" + _path(pages[0]["avif"])
        assert page.locator(FIRST).evaluate("e => e.naturalWidth") > 0
        # The pages read ahead are the AVIF the <picture>s will show, never their fallback.
        page.wait_for_function(
            "urls => urls.every(u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u)))",
            arg=[item["avif"] for item in pages],
        )
        for item in pages:
            assert types.get(_path(item["avif"])) == "image/avif", types
            assert _path(item["url"]) not in types, types
        # The first page was fetched once: its preload is the file its <picture>
        # takes (the offline copy's own asks go to the HTTP cache: 'fetch').
        first_fetches = page.evaluate(
            "u => performance.getEntriesByType('resource').filter(r => r.name.endsWith(u) && r.initiatorType !== 'fetch')"
            ".map(r => r.initiatorType)", pages[0]["avif"]
        )
        assert first_fetches == ["link"], first_fetches
        # The data saver's pages are AVIF too.
        choose(page, ("画質", "データセーバー"))
        assert _shown(page, ".reader-stage img") == "/" + _path(pages[0]["saver_avif"])
        assert types.get(_path(pages[0]["saver_avif"])) == "image/avif", types
        assert not any(path.endswith(".webp") and "-w" in path for path in types), types
        # The series' page: its cover too.
        page.goto(f"{base_url}{manga_url(slug)}")
        wait_for_hydration(page)
        cover = _shown(page, "img.title-cover")
        assert cover.endswith(".avif"), cover
        assert types.get(cover.lstrip("/")) == "image/avif", types
        # And the cards of the home page.
        page.goto(base_url)
        wait_for_hydration(page)
        card = page.locator("picture > img.cover").first
        card.scroll_into_view_if_needed()
        expect(card).to_be_visible()
        shown = _shown(page, "picture > img.cover")
        assert shown.endswith(".avif"), shown
        assert types.get(shown.lstrip("/")) == "image/avif", types


def test_the_first_html_names_the_avif_and_keeps_the_fallback_for_other_browsers(base_url: str, server_env) -> None:
    slug = series(server_env, "rtl")
    first = manifest(server_env, slug, "1")[0]
    html = httpx.get(f"{base_url}/{slug}-ch-1", timeout=10).text
    # One <picture>: the AVIF for a browser that shows it, the JPEG in the <img> for any other.
    picture = re.search(r'<picture[^>]*>(.*?)</picture>', html, re.S)
    assert picture, "no <picture> in the first HTML"
    source = re.search(r"<source[^>]*>", picture.group(1))
    assert source and 'type="image/avif"' in source.group(0), picture.group(0)
    assert f'srcSet="{first["avif"]}"' in source.group(0), picture.group(0)
    assert re.search(rf'<img[^>]*src="{re.escape(first["url"])}"[^>]*data-page-index="0"', picture.group(1)), picture.group(0)
    # Its preload is typed: a browser without AVIF skips it (and loads the <img>'s JPEG).
    preloads = [tag.lower() for tag in re.findall(r"<link[^>]*>", html) if 'rel="preload"' in tag and 'as="image"' in tag]
    high = [tag for tag in preloads if 'fetchpriority="high"' in tag]
    assert len(high) == 1 and f'href="{first["avif"]}"' in high[0] and 'type="image/avif"' in high[0], preloads
    # On a phone's slow link the first page comes first: named before the
    # reader's inline stylesheet, and no other page shares the link with it
    # (the app asks for the next pages once it has started).
    assert html.lower().index(high[0]) < html.lower().index("<style"), "the first page's preload comes after the stylesheet"
    assert preloads == high, preloads
    # The files: one URL, one format, cached for good (no negotiation, no Vary).
    for url, kind in ((first["avif"], "image/avif"), (first["url"], "image/jpeg"), (first["saver_url"], "image/webp")):
        response = httpx.get(url if url.startswith("http") else f"{base_url}{url}", headers={"Accept": "image/webp,*/*"}, timeout=10)
        assert response.status_code == 200 and response.headers["content-type"] == kind, (url, response.headers)
        assert "accept" not in response.headers.get("vary", "").lower()
    # The series' page: the cover's AVIF source and its WebP <img>.
    title = httpx.get(f"{base_url}{manga_url(slug)}", timeout=10).text
    cover = re.search(r'<picture[^>]*>(.*?)</picture>', title, re.S)
    assert cover, "no <picture> on the title page"
    source = re.search(r"<source[^>]*>", cover.group(1))
    assert source and 'type="image/avif"' in source.group(0) and re.search(r'srcSet="[^"]+-cover160\.avif 160w', source.group(0)), cover.group(0)
    assert re.search(r'<img[^>]*src="[^"]+-cover160\.webp"[^>]*>', cover.group(1)), cover.group(0)


def test_the_end_card_s_covers_are_avif(base_url: str, server_env, browser: Browser) -> None:
    slug = series(server_env, "rtl")
    with guarded_context(browser) as context:
        page = context.new_page()
        types = _media_types(page)
        open_chapter(page, f"{base_url}/{slug}-ch-1")
        page.keyboard.press("End")
        page.keyboard.press("ArrowLeft")
        pick = page.locator(".reader-end-pick img").first
        expect(pick).to_be_visible()
        shown = _shown(page, ".reader-end-pick img")
        assert shown.endswith(".avif"), shown
        assert types.get(shown.lstrip("/")) == "image/avif", types
