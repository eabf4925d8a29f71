"""Which image of a page a browser is served (formats.py), from a manifest with AVIF copies."""

from __future__ import annotations

import json

from manga_app.catalogue.publish_manifests import manifest_page
from manga_app.reader import formats, logic, rules

KEY = "ab" * 32


def _pages(width: int = 1800, height: int = 2700, avif: bool = True) -> list[dict]:
    return logic.parse_manifest_pages(json.dumps([manifest_page("/media", KEY, width, height, avif)]))


def test_a_browser_that_decodes_avif_is_served_the_avif_copies():
    [page] = formats.served_pages(_pages(), rules.IMAGE_AVIF)
    assert page == {"url": f"/media/ab/{KEY}-w1200.avif", "saver_url": f"/media/ab/{KEY}-w720.avif",
                    "width": 1200, "height": 1800}


def test_other_browsers_and_first_visits_get_jpeg_and_webp():
    for cookie in ("jpeg", "", "garbage"):
        [page] = formats.served_pages(_pages(), cookie)
        assert page["url"].endswith("-w1200.jpg") and page["saver_url"].endswith("-w720.webp")
        assert set(page) == {"url", "saver_url", "width", "height"}


def test_a_store_without_avif_copies_serves_jpeg_and_webp_to_everyone():
    [page] = formats.served_pages(_pages(avif=False), rules.IMAGE_AVIF)
    assert page["url"].endswith("-w1200.jpg") and page["saver_url"].endswith("-w720.webp")


def test_a_strip_too_tall_for_avif_stays_jpeg():
    [page] = formats.served_pages(_pages(800, 20_000), rules.IMAGE_AVIF)
    assert page["url"].endswith("-w1200.jpg") and page["saver_url"].endswith("-w720.jpg")
