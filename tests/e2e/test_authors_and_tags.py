"""Author and tag pages (issue 32) as a visitor reaches them: from the names
and tags of a title page and from the cards, with their heads, 404s and the
sitemap; and the phones' bottom tab bar."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from manga_app.core import routes
from tests.e2e.conftest import SITE_ORIGIN, guarded_context, wait_for_hydration
from tests.e2e.head_tags import with_head_tags
from tests.e2e.test_hydration import _chapter

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
SHOTS = Path("/tmp/e2e-shots")


def _items(base_url: str) -> list[dict]:
    items, number = [], 1
    while (response := httpx.get(f"{base_url}/mangas_{number}.json")).status_code == 200 and response.json()["list"]:
        items += response.json()["list"]
        number += 1
    return items


def _by(items: list[dict], name: str) -> set[str]:
    return {item["title"] for item in items if name in (*item["authors"], *item.get("artists", []))}


def _ld_types(html: str) -> list[str]:
    found = []
    for block in re.findall(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S):
        ld = json.loads(block)
        found += [entry.get("@type") for entry in (ld if isinstance(ld, list) else ld.get("@graph", [ld]))]
    return found


def test_an_author_on_a_title_page_links_to_every_series_they_made(base_url: str, page: Page) -> None:
    items = _items(base_url)
    item = next(item for item in items if item["authors"])
    author = item["authors"][0]
    page.goto(base_url + routes.manga_url(item["slug"]))
    wait_for_hydration(page)
    page.locator(".title-facts a.author", has_text=author).first.click()
    expect(page).to_have_url(base_url + routes.author_url(author))
    expect(page.locator("main h1")).to_have_text(f"{author}の作品")
    expect(page.locator("main .result-count")).to_contain_text(f"{len(_by(items, author))}作品")
    expect(page.locator("main .card-title")).to_have_count(len(_by(items, author)))
    assert set(page.locator("main .card-title").all_inner_texts()) == _by(items, author)
    # Sorted like a genre: the tabs change the order, in the URL.
    page.get_by_role("navigation", name="並び替え").get_by_text("人気順").click()
    expect(page).to_have_url(re.compile(r"\?sort=popular$"))


def test_a_tag_on_a_title_page_links_to_every_series_with_it(base_url: str, page: Page) -> None:
    items = _items(base_url)
    item = next(item for item in items if item.get("tags"))
    tag = item["tags"][0]
    page.goto(base_url + routes.manga_url(item["slug"]))
    wait_for_hydration(page)
    page.locator(".title-tags a", has_text=f"#{tag}").click()
    expect(page).to_have_url(base_url + routes.tag_url(tag))
    expect(page.locator("main h1")).to_have_text(f"#{tag}の漫画")
    tagged = {entry["title"] for entry in items if tag in entry.get("tags", [])}
    expect(page.locator("main .card-title")).to_have_count(len(tagged))
    assert set(page.locator("main .card-title").all_inner_texts()) == tagged


def test_a_card_names_its_author_with_a_link(base_url: str, page: Page) -> None:
    genre = next(item for item in _items(base_url) if item["authors"])["genres"][0]
    page.goto(base_url + routes.genre_url(genre))
    wait_for_hydration(page)
    author = page.locator("main .card a.card-author").first
    name = author.inner_text()
    author.click()
    expect(page.locator("main h1")).to_have_text(f"{name}の作品")


def test_author_and_tag_pages_are_server_rendered_with_their_heads_and_in_the_sitemap(base_url: str) -> None:
    items = _items(base_url)
    author = next(item for item in items if item["authors"])["authors"][0]
    tag = next(item for item in items if item.get("tags"))["tags"][0]
    for path, title in ((routes.author_url(author), f"{author}の作品一覧"), (routes.tag_url(tag), f"#{tag}の漫画一覧")):
        response = httpx.get(base_url + path)
        assert response.status_code == 200
        html = with_head_tags(response.text)
        assert f"<title>{title} | " in html
        assert f'<link rel="canonical" href="{SITE_ORIGIN}{path}"' in html
        assert {"CollectionPage", "BreadcrumbList"} <= set(_ld_types(response.text))
        # The cards are in the first HTML, not added by the app.
        assert 'class="card-title' in response.text
    sitemap = httpx.get(base_url + "/sitemap.xml").text
    assert f"<loc>{SITE_ORIGIN}{routes.author_url(author)}</loc>" in sitemap
    assert f"<loc>{SITE_ORIGIN}{routes.tag_url(tag)}</loc>" in sitemap


@pytest.mark.parametrize(
    ("path", "status"),
    [
        (routes.author_url("存在しない作者"), 404),
        (routes.tag_url("存在しないタグ"), 404),
        ("/author/%20", 404),
        ("/tag/a/b", 404),
        ("AUTHOR?sort=nonsense&page=-4", 200),
        ("AUTHOR?page=%00", 200),
        ("TAG?sort=%E2%80%AE&page=99999", 200),
    ],
)
def test_an_unknown_name_is_a_404_and_bad_queries_get_the_default(base_url: str, page: Page, path: str, status: int) -> None:
    items = _items(base_url)
    author = next(item for item in items if item["authors"])["authors"][0]
    tag = next(item for item in items if item.get("tags"))["tags"][0]
    path = path.replace("AUTHOR", routes.author_url(author)).replace("TAG", routes.tag_url(tag))
    response = httpx.get(base_url + path)
    assert response.status_code == status
    page.goto(base_url + path)
    wait_for_hydration(page)
    if status == 404:
        expect(page.get_by_text("ページが見つかりません").first).to_be_visible()
    else:
        expect(page.locator("main h1")).to_have_text(re.compile(r"の(作品|漫画)$"))
        expect(page.locator("main .card").first).to_be_visible()
        expect(page.get_by_role("navigation", name="並び替え").locator("a[aria-current=true]")).to_have_text("更新順")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_author_page_screenshots(browser: Browser, base_url: str, viewport: dict) -> None:
    author = next(item for item in _items(base_url) if item["authors"])["authors"][0]
    with guarded_context(browser, viewport=viewport) as context:
        page = context.new_page()
        page.goto(base_url + routes.author_url(author))
        wait_for_hydration(page)
        expect(page.locator("main .card").first).to_be_visible()
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"author-{viewport['width']}.png"))


def test_the_phone_tab_bar_marks_the_current_tab_and_covers_nothing(browser: Browser, base_url: str) -> None:
    with guarded_context(browser, viewport=PHONE) as context:
        _tab_bar_on_a_phone(base_url, context.new_page())


def _tab_bar_on_a_phone(base_url: str, page: Page) -> None:
    page.goto(base_url + "/")
    wait_for_hydration(page)
    bar = page.get_by_role("navigation", name="タブメニュー")
    expect(bar).to_be_visible()
    tabs = bar.locator("a")
    expect(tabs).to_have_text(["ホーム", "ランキング", "検索", "ライブラリ", "履歴"])
    expect(bar.locator("a[aria-current=page]")).to_have_text("ホーム")
    box = bar.bounding_box()
    assert box["y"] + box["height"] == PHONE["height"]
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "tab-bar-390.png"))
    tabs.filter(has_text="ランキング").click()
    expect(page).to_have_url(base_url + routes.RANKING)
    expect(bar.locator("a[aria-current=page]")).to_have_text("ランキング")
    tabs.filter(has_text="履歴").click()
    expect(page.locator("main h1")).to_have_text("閲覧履歴")
    expect(bar.locator("a[aria-current=page]")).to_have_text("履歴")
    # The page's end (the footer's last link) scrolls clear of the bar.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    last = page.locator(".site-footer .footer-note").bounding_box()
    assert last["y"] + last["height"] <= bar.bounding_box()["y"]
    # Never on a reader page.
    page.goto(base_url + _chapter(base_url)[1])
    wait_for_hydration(page)
    expect(page.locator("img.reader-page").first).to_be_visible()
    expect(page.get_by_role("navigation", name="タブメニュー")).to_have_count(0)


def test_no_tab_bar_on_a_desktop(browser: Browser, base_url: str) -> None:
    with guarded_context(browser, viewport=DESKTOP) as context:
        page = context.new_page()
        page.goto(base_url + "/")
        wait_for_hydration(page)
        expect(page.get_by_role("navigation", name="タブメニュー")).to_be_hidden()
