"""The 五十音 index (/index/{row}) as a visitor sees it: every row, な
included (Komga's index lost it, komga#1959), voiced, small and long-vowel
kana filed under their plain row and ordered as a kana dictionary orders
them, paged, linked from the footer and the genre list, a 404 for a row
that is not one, and its head."""

from __future__ import annotations

import io
import subprocess
import time
import zipfile
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from manga_app.core import routes
from tests.e2e.conftest import ROOT, SITE_ORIGIN, wait_for_hydration
from tests.e2e.head_tags import with_head_tags

# row -> titles imported for it, in the order the row lists them (a kana
# dictionary's: がいこつ (かいこつ) before かもめ; ハーブ (はあぶ) before パンダ).
ROWS = {
    "あ": ["あおいろ日記帳", "ヴァイオリン工房"],
    "か": ["がいこつ書房", "かもめ食堂譚"],
    "さ": ["ザリガニ探偵"],
    "た": ["ダンゴムシ物語"],
    "な": ["なないろ坂", "ニャンコ先生の午後", "ノラネコ日誌"],
    "は": ["ハーブ農園", "パンダ銀行"],
    "ま": ["まるいち書店"],
    "や": ["ゃっほー村", "ゆうやけ通り"],
    "ら": ["ラーメン横町"],
    "わ": ["ワンダー時計", "ヲタク部"],
    "英数": ["XYZ探偵団"],
}
SHOTS = Path("/tmp/kana-shots")


def _tiny_cbz(path: Path, series: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    Image.new("RGB", (300, 425), (255, 240, 230)).save(buffer, "JPEG")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("001.jpg", buffer.getvalue())
        archive.writestr(
            "ComicInfo.xml",
            f"<?xml version='1.0' encoding='utf-8'?><ComicInfo><Series>{series}</Series><Number>1</Number>"
            "<Genre>五十音確認</Genre><LanguageISO>ja</LanguageISO></ComicInfo>",
        )


@pytest.fixture(scope="module")
def kana_rows(base_url: str, server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = tmp_path_factory.mktemp("kana")
    for titles in ROWS.values():
        for series in titles:
            _tiny_cbz(root / series / f"{series} 第1話.cbz", series)
    subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(root)], cwd=ROOT,
                   env=server_env, check=True, capture_output=True)
    deadline = time.monotonic() + 30
    while "ノラネコ日誌" not in httpx.get(base_url + routes.kana_row_url("な")).text:
        assert time.monotonic() < deadline, "the held catalogue never saw the import"
        time.sleep(0.5)
    return ROWS


def _shown(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("main .card-grid .card-title").all_inner_texts()]


def test_every_row_lists_its_titles_in_kana_dictionary_order(base_url: str, page: Page, kana_rows) -> None:
    page.goto(base_url + "/genres")
    wait_for_hydration(page)
    # From the genre list to the な row, then through every row by its tabs.
    page.get_by_role("list", name="五十音の行").get_by_role("link", name="な").click()
    expect(page.locator("main h1")).to_have_text("な行の漫画")
    tabs = page.get_by_role("navigation", name="五十音の行").locator("a")
    expect(tabs).to_have_count(11)
    for row, titles in kana_rows.items():
        tabs.filter(has_text=row).first.click()
        expect(page).to_have_url(base_url + routes.kana_row_url(row))
        expect(page.locator("main h1")).to_have_text(f"{row}の漫画" if row == "英数" else f"{row}行の漫画")
        expect(page.locator(".tab.is-current")).to_contain_text(row)
        shown = _shown(page)
        assert [title for title in shown if title in titles] == titles, (row, shown)
        for other, others in kana_rows.items():
            assert other == row or not set(others) & set(shown), (row, other, shown)


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_the_footer_opens_the_index_and_index_moves_to_its_first_row(base_url, browser, kana_rows, viewport) -> None:
    context = browser.new_context(viewport=viewport, locale="ja-JP")
    try:
        page = context.new_page()
        page.goto(base_url + "/")
        wait_for_hydration(page)
        page.locator("footer").get_by_role("link", name="五十音").click()
        expect(page.locator("main h1")).to_have_text("あ行の漫画")
        page.goto(base_url + routes.kana_row_url("な"))
        wait_for_hydration(page)
        expect(page.locator("main h1")).to_have_text("な行の漫画")
        expect(page.locator("main .card-grid .card-title").filter(has_text="ノラネコ日誌")).to_be_visible()
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"index-na-{viewport['width']}.png"))
    finally:
        context.close()
    moved = httpx.get(base_url + "/index", follow_redirects=False)
    assert (moved.status_code, moved.headers["location"]) == (308, routes.kana_row_url("あ"))


@pytest.mark.parametrize("path", ["/index/" + quote("が"), "/index/ka", "/index/" + quote("ん")])
def test_a_row_that_is_not_one_is_a_404(base_url: str, page: Page, path: str) -> None:
    response = page.goto(base_url + path)
    assert response is not None and response.status == 404
    expect(page.locator("main h1")).to_have_text("ページが見つかりません")


def test_a_row_has_its_own_head_and_is_in_the_sitemap(base_url: str, kana_rows) -> None:
    html = with_head_tags(httpx.get(base_url + routes.kana_row_url("な")).text)
    assert "<title>な行の漫画 | " in html
    assert f'<link rel="canonical" href="{SITE_ORIGIN}{routes.kana_row_url("な")}"' in html
    assert '"CollectionPage"' in html
    sitemap = httpx.get(base_url + "/sitemap.xml").text
    for row in kana_rows:
        assert f"<loc>{SITE_ORIGIN}{routes.kana_row_url(row)}</loc>" in sitemap


def test_a_row_pages_like_a_genre(base_url: str, page: Page, kana_rows) -> None:
    page.goto(base_url + routes.kana_row_url("な", 99))
    wait_for_hydration(page)
    # Past the last page: the last page, like a genre.
    expect(page.locator("main .card-grid .card-title").first).to_be_visible()
    expect(page.locator(".result-count")).to_contain_text("作品・読みの五十音順")
