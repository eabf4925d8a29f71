"""Pages show their content before the app's JavaScript has run: a phone on
a slow network sees a title page, a genre's titles or search results as
soon as the HTML and stylesheet are in, and nothing on it moves when the app
takes over."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from manga_app.core import routes
from tests.e2e.conftest import wait_for_hydration

PHONE = {"width": 390, "height": 844}
# What a visitor's eye follows from the first paint to the app's page.
TITLE_LANDMARKS = (".title-cover", ".title-name", ".read-first", ".follow-button", ".chapter-row:first-child",
                   ".chapter-row:first-child .chapter-save")
SEARCH_LANDMARKS = (".page-title", ".search-field", ".filters-summary", ".result-count", ".result-bar .tab.is-current",
                    ".card:first-child .cover", ".card:first-child .card-title", ".card:last-child .card-meta")
GENRE_LANDMARKS = (".page-title", ".result-count", ".tab.is-current", ".card:first-child .cover",
                   ".card:first-child .card-title", ".card:last-child .card-meta")
# The reader's first frame is its top bar and the first page; the overlay
# of controls (which need the app) comes with the app, over the page.
# The page only: a chapter opens with its bars closed until the reader asks for them.
READER_LANDMARKS = (".reader-root img",)
QUERY = "の"


def _biggest_genre(base_url: str) -> str:
    genres = [g for g in httpx.get(f"{base_url}/genres.json", timeout=10).json() if g.get("name") and g["total"] > 0]
    return max(genres, key=lambda g: g["total"])["name"]


def _first_title(base_url: str) -> dict:
    return httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"][0]


def _boxes(page: Page, landmarks: tuple[str, ...]) -> dict[str, dict]:
    """Where each landmark the visitor sees is (hidden copies do not count)."""
    return {selector: page.locator(selector).filter(visible=True).first.bounding_box() for selector in landmarks}


def _without_the_app(browser: Browser):
    """A visitor whose JavaScript bundle has not arrived (yet)."""
    context = browser.new_context(locale="ja-JP", viewport=PHONE)
    context.route("**/*", lambda route: route.abort() if "/assets/" in route.request.url and route.request.url.endswith(".js") else route.continue_())
    return context


def test_a_title_page_shows_its_content_before_the_app_runs(base_url: str, browser: Browser) -> None:
    title = _first_title(base_url)
    context = _without_the_app(browser)
    try:
        page = context.new_page()
        page.goto(f"{base_url}/manga/{title['slug']}")
        expect(page.get_by_role("heading", level=1)).to_have_text(title["title"])
        cover = page.locator(".title-cover")
        expect(cover).to_be_visible()
        page.wait_for_function("() => document.querySelector('.title-cover').naturalWidth > 0")
        expect(page.locator(".chapter-row").first).to_be_visible()
        assert page.locator(".chapter-link").first.get_attribute("href").startswith(f"/{title['slug']}-ch-")
        expect(page.get_by_role("link", name="最初から読む")).to_be_visible()
        # The site's header is there too: searching works without the app.
        page.locator(".header-search input[name=q]").fill("ほし")
        page.locator(".header-search input[name=q]").press("Enter")
        expect(page).to_have_url(f"{base_url}/search?q=%E3%81%BB%E3%81%97")
    finally:
        context.close()


def test_search_results_show_before_the_app_runs(base_url: str, browser: Browser) -> None:
    found = httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"]
    expected = sum(QUERY in item["title"] or any(QUERY in alias for alias in item["alt_titles"]) for item in found)
    context = _without_the_app(browser)
    try:
        page = context.new_page()
        page.goto(f"{base_url}/search?q={QUERY}")
        expect(page.get_by_role("heading", level=1)).to_have_text(f"「{QUERY}」の検索結果")
        expect(page.get_by_role("combobox", name="検索キーワード")).to_have_value(QUERY)
        count = int(page.locator(".result-count").filter(visible=True).inner_text().removesuffix("件"))
        assert count >= expected > 0
        expect(page.locator(".card-grid .card").filter(visible=True).first).to_be_visible()
        # The match is marked as the title writes it: の, or ノ in a katakana title (ノラネコ日誌, which
        # test_kana_index imports, is a prefix match and comes first once it is there).
        expect(page.locator(".card-title mark").filter(visible=True).first).to_have_text(re.compile("^[のノﾉ]$"))
        page.wait_for_function("() => document.querySelector('.card .cover').naturalWidth > 0")
        # Sorting is a plain link: it works without the app.
        page.get_by_role("link", name="人気順").click()
        expect(page).to_have_url(re.compile(r"sort=popular"))
        expect(page.locator(".result-bar .tab.is-current").filter(visible=True)).to_have_text("人気順")
    finally:
        context.close()


@pytest.mark.parametrize(
    ("path", "landmarks", "ready", "single"),
    [
        pytest.param("title", TITLE_LANDMARKS, ".title-page:not(.is-placeholder)", "h1", id="title"),
        pytest.param(f"/search?q={QUERY}", SEARCH_LANDMARKS, ".browse-results[data-loaded=true]", "h1", id="search"),
        pytest.param("genre", GENRE_LANDMARKS, ".browse-results[data-loaded=true]", "h1", id="genre"),
        pytest.param("reader", READER_LANDMARKS, ".reader-root[data-interactive=true] .reader-overlay", ".reader-root", id="reader"),
    ],
)
def test_nothing_moves_when_the_app_takes_over(
    base_url: str, browser: Browser, page: Page, path: str, landmarks, ready, single
) -> None:
    if path == "title":
        path = f"/manga/{_first_title(base_url)['slug']}"
    elif path == "genre":
        path = routes.genre_url(_biggest_genre(base_url))
    elif path == "reader":
        first = _first_title(base_url)
        path = routes.chapter_url(first["slug"], first["latest_chapter"])
    context = _without_the_app(browser)
    try:
        before = context.new_page()
        before.goto(base_url + path)
        expect(before.locator(landmarks[0]).first).to_be_visible()
        painted = _boxes(before, landmarks)
        painted_overlay = before.locator(".reader-overlay").is_visible()
    finally:
        context.close()
    page.goto(base_url + path)
    wait_for_hydration(page)
    expect(page.locator(ready)).to_be_visible()
    # One of everything: the app shows the page it was sent, no second copy.
    expect(page.locator(single)).to_have_count(1)
    app = _boxes(page, landmarks)
    for selector, box in painted.items():
        assert box is not None and app[selector] is not None, selector
        for side in ("x", "y", "width", "height"):
            assert abs(box[side] - app[selector][side]) <= 1, (selector, side, box, app[selector])
    if landmarks is READER_LANDMARKS:
        assert painted_overlay is False, "the reader's controls were drawn before the app that works them"
        expect(page.locator(".reader-overlay")).to_be_visible()


def test_a_genre_page_shows_its_titles_before_the_app_runs(base_url: str, browser: Browser) -> None:
    name = _biggest_genre(base_url)
    context = _without_the_app(browser)
    try:
        page = context.new_page()
        page.goto(base_url + routes.genre_url(name))
        expect(page.get_by_role("heading", level=1)).to_have_text(f"{name}の漫画")
        expect(page.locator(".card").filter(visible=True).first).to_be_visible()
        page.get_by_role("link", name="人気順").click()
        expect(page).to_have_url(re.compile(r"sort=popular"))
        expect(page.locator(".tab.is-current").filter(visible=True)).to_have_text("人気順")
    finally:
        context.close()


@pytest.mark.parametrize(
    ("path", "box"),
    [
        pytest.param("title", ".header-search input[name=q]", id="header-box-on-a-title-page"),
        pytest.param("/search", ".search-form input[name=q]", id="search-page-box"),
    ],
)
def test_what_a_visitor_types_before_the_app_arrives_is_kept(base_url: str, context, path: str, box: str) -> None:
    if path == "title":
        path = f"/manga/{_first_title(base_url)['slug']}"
    held = []

    def hold(route) -> None:  # the app's scripts, still on their way
        held.append(route)

    context.route("**/assets/*.js", hold)
    page = context.new_page()
    page.goto(base_url + path, wait_until="domcontentloaded")
    page.locator(box).fill("ほし")
    for route in held:
        route.continue_()
    context.unroute("**/assets/*.js", hold)
    wait_for_hydration(page)
    field = page.locator(box)
    expect(field).to_have_value("ほし")
    expect(field).to_be_focused()
    if path == "/search":  # the app heard it as typing: it searched
        expect(page.locator("h1")).to_have_text("「ほし」の検索結果")
        expect(page.locator("main .card-grid .card-title").first).to_contain_text("星")
