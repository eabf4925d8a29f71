"""Home, genre list and genre pages as a visitor sees them, checked against
the published catalogue the server holds (other tests may import more)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import time
import zipfile
from pathlib import Path

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from manga_app.pages.home.parts import FIRST_SCREEN_COVERS
from manga_app.core import routes
from tests.e2e.conftest import ROOT, SITE_ORIGIN, wait_for_hydration
from tests.e2e.head_tags import with_head_tags

RELATIVE_TIME = re.compile(r"^(たった今|\d+(分|時間|日|週間|ヶ月)前|先月|昨年|1年前|2年以上前)$")
PAGING_GENRE = "ページ送り確認"
PAGING_SERIES = 25  # one more than a grid page


def catalogue(base_url: str) -> list[dict]:
    items, page = [], 1
    while (response := httpx.get(f"{base_url}/mangas_{page}.json")).status_code == 200 and response.json()["list"]:
        items += response.json()["list"]
        page += 1
    return items


def genres(base_url: str) -> dict[str, int]:
    return {g["name"]: g["total"] for g in httpx.get(base_url + "/genres.json").json() if g.get("name") and g["total"] > 0}


def titles(page: Page, scope: str) -> list[str]:
    return [text.strip() for text in page.locator(f"{scope} .card-title, {scope} .update-title").all_inner_texts()]


def test_home_sections_show_the_catalogue_with_relative_times(base_url: str, page: Page) -> None:
    items = catalogue(base_url)
    page.goto(base_url + "/")
    wait_for_hydration(page)
    latest = page.locator("[aria-labelledby=home-latest]")
    expect(latest.locator(".update-title").first).to_be_visible()
    newest_update = max(items, key=lambda item: item["updated_at"])
    assert titles(page, "[aria-labelledby=home-latest]")[0] == newest_update["title"]
    for text in latest.locator("time").all_inner_texts():
        assert RELATIVE_TIME.match(text), text
    assert latest.locator(".update-chapter").first.inner_text() == f"第{routes.format_chapter_number(newest_update['latest_chapter'])}話"
    popular = sorted(items, key=lambda item: (-item["views"], item["title"]))
    assert titles(page, "[aria-labelledby=home-popular]")[: len(popular)] == [i["title"] for i in popular][:12]
    expect(page.locator("[aria-labelledby=home-popular] .card-meta").first).to_have_text(re.compile(r"閲覧 \d+(\.\d[KMB])?"))
    newest = max(items, key=lambda item: item["created_at"])
    assert titles(page, "[aria-labelledby=home-newest]")[0] == newest["title"]
    chip = page.locator("[aria-labelledby=home-genres] a.chip").first
    expect(chip).to_have_attribute("href", re.compile(r"^/genre/"))


def test_covers_are_lazy_with_their_size_set_and_nothing_shifts(base_url: str, page: Page) -> None:
    page.add_init_script(
        "window.__shift = 0; new PerformanceObserver(list => { for (const e of list.getEntries())"
        " if (!e.hadRecentInput) window.__shift += e.value; }).observe({type: 'layout-shift', buffered: true});"
    )
    page.goto(base_url + "/")
    wait_for_hydration(page)
    expect(page.locator("[aria-labelledby=home-latest] img.cover").first).to_be_visible()
    covers = page.locator("main img.cover")
    assert covers.count() > 0
    for index in range(covers.count()):
        cover = covers.nth(index)
        assert (cover.get_attribute("width"), cover.get_attribute("height")) == ("160", "228")
    # 最新更新's first screen loads at once (test_home_layout.py); every other cover waits until it is near.
    loading = covers.evaluate_all(
        "(imgs, count) => { const first = [...document.querySelectorAll('[aria-labelledby=home-latest] img.cover')]"
        ".slice(0, count); return imgs.map(img => [first.includes(img), img.getAttribute('loading')]); }",
        FIRST_SCREEN_COVERS)
    assert all(state == ("eager" if first else "lazy") for first, state in loading), loading
    assert sum(first for first, _ in loading) == min(FIRST_SCREEN_COVERS, page.locator(
        "[aria-labelledby=home-latest] img.cover").count())
    page.wait_for_timeout(500)
    assert page.evaluate("window.__shift") < 0.05


def test_genre_list_shows_every_genre_with_its_count(base_url: str, page: Page) -> None:
    expected = genres(base_url)
    page.goto(base_url + routes.GENRES)
    wait_for_hydration(page)
    chips = page.get_by_role("list", name="ジャンル一覧").locator("a.chip")
    expect(chips.first).to_be_visible()
    shown = {
        chips.nth(i).locator(".chip-name").inner_text(): int(chips.nth(i).locator(".chip-count").inner_text())
        for i in range(chips.count())
    }
    assert shown == expected
    first = next(iter(expected))
    chips.filter(has_text=first).first.click()
    page.wait_for_url(re.compile(re.escape(routes.genre_url(first)) + "$"))
    expect(page.locator("h1")).to_have_text(f"{first}の漫画")


def test_genre_page_sorts_with_links_and_the_back_button(base_url: str, page: Page) -> None:
    name, _ = max(genres(base_url).items(), key=lambda pair: pair[1])
    members = [item for item in catalogue(base_url) if name in item["genres"]]
    by_update = [i["title"] for i in sorted(members, key=lambda i: i["updated_at"], reverse=True)]
    by_views = [i["title"] for i in sorted(members, key=lambda i: (-i["views"], i["title"]))]
    by_creation = [i["title"] for i in sorted(members, key=lambda i: i["created_at"], reverse=True)]
    page.goto(base_url + routes.genre_url(name))
    wait_for_hydration(page)
    expect(page.locator(".result-count")).to_have_text(f"{len(members)}作品")
    expect(page.locator(".tab.is-current")).to_have_text("更新順")
    assert titles(page, "main .card-grid")[:24] == by_update[:24]
    page.get_by_role("link", name="人気順").click()
    page.wait_for_url(re.compile(r"sort=popular"))
    expect(page.locator(".tab.is-current")).to_have_text("人気順")
    assert titles(page, "main .card-grid")[:24] == by_views[:24]
    page.get_by_role("link", name="新着順").click()
    page.wait_for_url(re.compile(r"sort=newest"))
    expect(page.locator(".tab.is-current")).to_have_text("新着順")
    assert titles(page, "main .card-grid")[:24] == by_creation[:24]
    page.go_back()
    page.wait_for_url(re.compile(r"sort=popular"))
    expect(page.locator(".tab.is-current")).to_have_text("人気順")


def _tiny_cbz(path: Path, series: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    Image.new("RGB", (300, 425), (240, 240, 255)).save(buffer, "JPEG")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("001.jpg", buffer.getvalue())
        archive.writestr(
            "ComicInfo.xml",
            f"<?xml version='1.0' encoding='utf-8'?><ComicInfo><Series>{series}</Series><Number>1</Number>"
            f"<Genre>{PAGING_GENRE}</Genre><LanguageISO>ja</LanguageISO></ComicInfo>",
        )


@pytest.fixture(scope="module")
def paging_genre(base_url: str, server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> str:
    """A genre with more titles than one grid page, imported through the real CLI."""
    root = tmp_path_factory.mktemp("paging")
    for number in range(1, PAGING_SERIES + 1):
        series = f"ページ確認作品{number:02d}"
        _tiny_cbz(root / series / f"{series} 第1話.cbz", series)
    subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(root)], cwd=ROOT, env=server_env, check=True, capture_output=True)
    deadline = time.monotonic() + 30
    while httpx.get(base_url + routes.genre_url(PAGING_GENRE)).status_code != 200:
        assert time.monotonic() < deadline, "the held catalogue never saw the import"
        time.sleep(0.5)
    return PAGING_GENRE


def test_genre_page_pages_with_links(base_url: str, page: Page, paging_genre: str) -> None:
    page.goto(base_url + routes.genre_url(paging_genre))
    wait_for_hydration(page)
    expect(page.locator(".result-count")).to_contain_text(f"{PAGING_SERIES}作品")
    expect(page.locator("main .card-grid .card")).to_have_count(24)
    pager = page.get_by_role("navigation", name="ページ送り")
    pager.get_by_role("link", name="2", exact=True).click()
    page.wait_for_url(re.compile(r"page=2"))
    expect(page.locator("main .card-grid .card")).to_have_count(1)
    expect(pager.locator("[aria-current=page]")).to_have_text("2")
    page.go_back()
    expect(page.locator("main .card-grid .card")).to_have_count(24)
    # A page past the end shows the last page, never an error.
    page.goto(base_url + routes.genre_url(paging_genre) + "?page=999")
    wait_for_hydration(page)
    expect(page.locator("main .card-grid .card")).to_have_count(1)


@pytest.mark.parametrize("query", ["?page=-1", "?page=abc", "?sort=bogus", "?page=99999999999999999999", "?sort=%00"])
def test_genre_page_bad_parameters_still_show_the_genre(base_url: str, page: Page, query: str) -> None:
    name = next(iter(genres(base_url)))
    assert httpx.get(base_url + routes.genre_url(name) + query).status_code == 200
    page.goto(base_url + routes.genre_url(name) + query)
    wait_for_hydration(page)
    expect(page.locator(".result-count")).to_contain_text("作品")
    expect(page.locator("main .card-grid .card").first).to_be_visible()


def test_unknown_genre_is_a_404_with_the_japanese_not_found_page(base_url: str, page: Page) -> None:
    response = httpx.get(base_url + routes.genre_url("存在しないジャンル"))
    assert response.status_code == 404
    page.goto(base_url + routes.genre_url("存在しないジャンル"))
    expect(page.get_by_text("ページが見つかりません").first).to_be_visible()


@pytest.mark.parametrize("path_of", [lambda base: routes.GENRES, lambda base: routes.genre_url(next(iter(genres(base))))])
def test_genre_pages_carry_one_head_before_and_after_hydration(base_url: str, page: Page, path_of) -> None:
    path = path_of(base_url)
    html = with_head_tags(httpx.get(base_url + path).text)
    assert html.count("<title>") == 1
    assert f'<link rel="canonical" href="{SITE_ORIGIN}{path}"' in html
    assert re.search(r'<meta property="og:title" content="[^"]+"', html)
    assert len(re.findall(r'<script type="application/ld\+json"', html)) == 1
    page.goto(base_url + path)
    wait_for_hydration(page)
    for selector in ("title", "meta[name=description]", "link[rel=canonical]", "meta[property='og:title']", "script[type='application/ld+json']"):
        assert page.locator(selector).count() == 1, selector
    assert json.loads(page.locator("script[type='application/ld+json']").text_content())
