"""Search-box suggestions as a visitor meets them: typing the moment a page
loads (before the app has started), choosing with ↑ ↓ Enter, Esc, or a tap,
on a phone and a desktop, in every search box; what was typed stays; the
open list passes axe."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from manga_app.catalogue.readings import readings_for
from manga_app.core import routes
from tests.e2e.conftest import wait_for_hydration
from tests.e2e.test_validators import _node_module

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
SHOTS = Path("/tmp/kana-shots")
TYPED, TITLE = "ほしふ", "星降る街の配達人"  # a demo title, by the first kana of its reading


def _options(page: Page, box: str):
    return page.locator(f"#{box}-suggestions [role=option]")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_typing_as_the_page_loads_suggests_titles_and_keeps_the_text(browser: Browser, base_url, viewport) -> None:
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale="ja-JP", has_touch=viewport == "phone",
                                  is_mobile=viewport == "phone")
    try:
        page = context.new_page()
        page.goto(base_url + routes.GENRES, wait_until="commit")
        box = page.locator("#site-search")
        box.click()  # as soon as the server's HTML shows the box
        page.keyboard.type(TYPED)
        expect(box).to_have_attribute("aria-expanded", "true")
        options = _options(page, "site-search")
        expect(options.first).to_be_visible()
        assert 1 <= options.count() <= 8
        expect(options.filter(has_text=TITLE)).to_have_count(1)
        expect(box).to_have_value(TYPED)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"suggest-{viewport}.png"))
        if viewport == "phone":
            options.filter(has_text=TITLE).tap()
        else:
            options.filter(has_text=TITLE).click()
        expect(page.locator("main h1")).to_contain_text(TITLE)
        assert re.search(r"/manga/[a-z0-9-]+$", page.url)
    finally:
        context.close()


def test_arrows_move_through_the_list_enter_opens_and_esc_closes(base_url, page: Page) -> None:
    page.goto(base_url + routes.GENRES)
    wait_for_hydration(page)
    box = page.locator("#site-search")
    box.click()
    page.keyboard.type("の")
    options = _options(page, "site-search")
    expect(options.nth(1)).to_be_visible()
    labels = [text.strip() for text in options.locator(".suggest-label").all_inner_texts()]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(box).to_have_attribute("aria-activedescendant", "site-search-suggestions-1")
    expect(options.nth(1)).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # past the first: the last
    expect(options.last).to_have_attribute("aria-selected", "true")
    expect(box).to_have_value("の")  # moving never rewrites what was typed
    page.keyboard.press("Escape")
    expect(box).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#site-search-suggestions")).to_be_hidden()
    expect(box).to_have_value("の")
    page.keyboard.press("ArrowDown")  # opens again on the first
    expect(options.first).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(page.locator("main h1")).to_contain_text(labels[0])


def test_an_author_is_suggested_by_the_reading_of_their_name(base_url, page: Page) -> None:
    author = httpx.get(base_url + "/mangas_1.json").json()["list"][0]["authors"][0]
    typed = readings_for(author).hiragana[:4]
    page.goto(base_url + "/")
    wait_for_hydration(page)
    page.locator("#site-search").click()
    page.keyboard.type(typed)
    found = _options(page, "site-search").filter(has_text=author).filter(has_text="作者")
    expect(found).to_have_count(1)
    found.click()
    expect(page).to_have_url(re.compile(r"/search\?q="))
    expect(page.locator("#search-page-input")).to_have_value(author)
    # The search page put a new box in place for the URL's words: it suggests too.
    box = page.locator("#search-page-input")
    box.fill("")
    box.click()
    page.keyboard.type(TYPED)
    expect(_options(page, "search-page-input").filter(has_text=TITLE)).to_have_count(1)


def test_the_search_page_and_the_not_found_page_boxes_suggest_too(base_url, page: Page) -> None:
    for path, box in ((routes.SEARCH, "search-page-input"), ("/no-such-page", "not-found-search-input")):
        page.goto(base_url + path, wait_until="commit")
        page.locator(f"#{box}").click()
        page.keyboard.type(TYPED)
        expect(_options(page, box).filter(has_text=TITLE)).to_have_count(1)
        expect(page.locator(f"#{box}")).to_have_value(TYPED)


def test_the_suggestions_answer_any_text_without_an_error(base_url) -> None:
    for text in ("", "   ", "\u0000", "x" * 5000, "ほしふ"):
        response = httpx.get(base_url + routes.SUGGEST, params={"q": text})
        assert response.status_code == 200
        assert len(response.json()["items"]) <= 8
    assert httpx.get(base_url + routes.SUGGEST).json()["items"] == []


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_open_list_has_no_axe_violations(browser: Browser, base_url, viewport) -> None:
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale="ja-JP", bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(base_url + routes.GENRES)
        wait_for_hydration(page)
        page.locator("#site-search").click()
        page.keyboard.type("の")
        expect(_options(page, "site-search").first).to_be_visible()
        page.keyboard.press("ArrowDown")
        expect(_options(page, "site-search").first).to_have_attribute("aria-selected", "true")
        page.add_script_tag(path=_node_module("axe-core/axe.min.js"))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    finally:
        context.close()
    assert not [f"{v['id']}: {[n['target'] for n in v['nodes']]}" for v in result["violations"]]
