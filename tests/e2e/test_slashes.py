"""Paths with repeated slashes: the server and the browser's router must
agree on which page a URL names, so such a path is redirected (308, on the
site's own origin) to the same path with its slashes collapsed."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Page

from tests.e2e.conftest import PORT, wait_for_hydration


def _first_slug(base_url: str) -> str:
    return httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"][0]["slug"]


def _single_layout_after_hydration(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_hydration(page)
    # The page's on_load has run (the app is connected and the router drew
    # its route): a second layout would be there by now.
    page.wait_for_load_state("networkidle")
    assert page.locator("[data-layout=site]").count() == 1
    assert page.locator("header.site-header").count() == 1
    assert page.locator("footer.site-footer").count() == 1


def test_a_path_starting_with_two_slashes_is_redirected_on_our_origin_and_drawn_once(base_url: str, page: Page) -> None:
    _single_layout_after_hydration(page, base_url + "//evil.example/manga/x")
    assert page.url == base_url + "/evil.example/manga/x"
    assert page.get_by_text("ページが見つかりません").first.is_visible()


def test_empty_segments_in_a_title_path_lead_to_the_title_page(base_url: str, page: Page) -> None:
    slug = _first_slug(base_url)
    _single_layout_after_hydration(page, f"{base_url}/manga//{slug}?from=share")
    assert page.url == f"{base_url}/manga/{slug}?from=share"
    assert page.locator("h1").count() == 1


def test_repeated_slashes_get_a_same_origin_308_and_leave_no_traceback(base_url: str, server_env: dict[str, str]) -> None:
    cases = {
        "//": "/",
        "///x": "/x",
        "//evil.example/manga/x?q=1": "/evil.example/manga/x?q=1",
        "/manga//x//": "/manga/x/",
        "/%2F%2Fevil.example": "/evil.example",
    }
    log = Path(server_env["DATA_DIR"]) / f"server-{PORT}.log"
    logged_before = log.stat().st_size
    for path, location in cases.items():
        for method in ("GET", "HEAD"):
            response = httpx.request(method, base_url + path, timeout=10, follow_redirects=False)
            assert response.status_code == 308, (method, path)
            assert response.headers["location"] == location, path
            assert response.headers["x-content-type-options"] == "nosniff"
    with log.open("rb") as file:
        file.seek(logged_before)
        assert b"Traceback" not in file.read()
