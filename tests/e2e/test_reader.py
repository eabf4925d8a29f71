"""The reader as a visitor uses it, in Chromium against the demo library:
pages from the encrypted manifest, both modes, keys, taps, swipes, spreads,
resume, the next chapter, 404s and a manifest that cannot be decrypted."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from manga_app.crypto import decrypt_text, encrypt_text
from tests.e2e.conftest import wait_for_hydration

LOAD_ERROR = "ページを読み込めませんでした"


# ---- the demo library, as the tests need to know it ----------------------


def _db(server_env: dict[str, str]) -> sqlite3.Connection:
    return sqlite3.connect(server_env["REFLEX_DB_URL"].removeprefix("sqlite:///"))


def _series(server_env: dict[str, str], direction: str, *, spreads: bool = False) -> str:
    """A series slug of that reading direction (with a spread in chapter 1)."""
    with _db(server_env) as db:
        slugs = [row[0] for row in db.execute("select slug from series where direction = ? order by slug", (direction,))]
    for slug in slugs:
        if not spreads or any(page["width"] > page["height"] for page in _manifest(server_env, slug, "1")):
            return slug
    pytest.skip(f"no {direction} series in the demo library")


def _manifest_path(server_env: dict[str, str], slug: str, number: str) -> Path:
    return Path(server_env["DATA_DIR"]) / "published" / "manifests" / slug / f"{number}.json"


def _manifest(server_env: dict[str, str], slug: str, number: str) -> list[dict]:
    envelope = json.loads(_manifest_path(server_env, slug, number).read_text())
    key = (Path(server_env["DATA_DIR"]) / "content_key").read_text().strip()
    return json.loads(decrypt_text(envelope["data"], key, envelope["iv"]))


def _open(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_hydration(page)
    expect(page.locator("img.reader-page").first).to_be_visible()


def _counter(page: Page) -> str:
    return page.locator(".reader-counter").inner_text()


def _visible_pages(page: Page) -> list[int]:
    return page.locator(".reader-stage img").evaluate_all("els => els.map(e => Number(e.dataset.pageIndex))")


def _menu(page: Page) -> None:
    """Shows the overlay (Esc toggles it) if reading has hidden it."""
    overlay = page.locator(".reader-overlay")
    if overlay.get_attribute("data-visible") == "false":
        page.keyboard.press("Escape")
    expect(overlay).to_have_attribute("data-visible", "true")


def _settings(page: Page, *choices: tuple[str, str]) -> None:
    _menu(page)
    page.get_by_role("button", name="⚙ 設定").click()
    sheet = page.get_by_role("dialog", name="表示設定")
    for legend, label in choices:
        button = sheet.locator("fieldset", has=page.locator(f"legend:text-is('{legend}')")).get_by_role("button", name=label, exact=True)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
    sheet.get_by_role("button", name="閉じる").click()


# ---- opening a chapter ----------------------------------------------------


def test_a_manga_chapter_opens_paged_right_to_left_and_every_page_decodes(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    pages = _manifest(server_env, slug, "1")
    _open(page, f"{base_url}/{slug}-ch-1")
    root = page.locator(".reader-root")
    expect(root).to_have_attribute("data-mode", "paged")
    expect(root).to_have_attribute("data-direction", "rtl")
    first = page.locator(".reader-stage img").first
    expect(first).to_have_attribute("fetchpriority", "high")
    assert first.get_attribute("width") == str(pages[0]["width"])
    assert first.get_attribute("height") == str(pages[0]["height"])
    for index in range(len(pages)):
        expect(page.locator(".reader-counter")).to_have_text(f"{index + 1} / {len(pages)}")
        image = page.locator(f".reader-stage img[data-page-index='{index}']")
        expect(image).to_have_attribute("alt", re.compile(rf".+ 第1話.* {index + 1}ページ目"))
        page.wait_for_function("i => { const e = document.querySelector(`.reader-stage img[data-page-index='${i}']`); return e && e.complete && e.naturalWidth > 0 }", arg=index)
        page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-end")).to_be_visible()


def test_a_webtoon_opens_as_a_vertical_strip_and_every_page_decodes(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "vertical")
    pages = _manifest(server_env, slug, "1")
    _open(page, f"{base_url}/{slug}-ch-1")
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
    images = page.locator(".reader-strip img")
    expect(images).to_have_count(len(pages))
    # Every box has its size before its image arrives.
    sizes = images.evaluate_all("els => els.map(e => [e.getAttribute('width'), e.getAttribute('height'), e.getBoundingClientRect().height > 0])")
    assert sizes == [[str(p["width"]), str(p["height"]), True] for p in pages]
    for index in range(len(pages)):
        images.nth(index).scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.querySelectorAll('.reader-strip img')].every(e => e.complete && e.naturalWidth > 0)")
    expect(page.locator(".reader-end")).to_be_attached()


# ---- keys, taps, swipes ---------------------------------------------------


def test_arrow_keys_follow_the_reading_direction(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    total = len(_manifest(server_env, slug, "1"))
    _open(page, f"{base_url}/{slug}-ch-1")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-counter")).to_have_text(f"2 / {total}")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".reader-counter")).to_have_text(f"1 / {total}")
    page.keyboard.press("Space")
    expect(page.locator(".reader-counter")).to_have_text(f"2 / {total}")
    page.keyboard.press("End")
    expect(page.locator(".reader-counter")).to_have_text(f"{total} / {total}")
    page.keyboard.press("Home")
    expect(page.locator(".reader-counter")).to_have_text(f"1 / {total}")
    _settings(page, ("めくる方向", "左から右"))
    expect(page.locator(".reader-root")).to_have_attribute("data-direction", "ltr")
    page.keyboard.press("ArrowRight")
    expect(page.locator(".reader-counter")).to_have_text(f"2 / {total}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-counter")).to_have_text(f"1 / {total}")


def test_escape_shows_and_hides_the_overlay(base_url: str, server_env, page: Page) -> None:
    _open(page, f"{base_url}/{_series(server_env, 'rtl')}-ch-1")
    overlay = page.locator(".reader-overlay")
    page.keyboard.press("ArrowLeft")  # reading hides it
    expect(overlay).to_have_attribute("data-visible", "false")
    page.keyboard.press("Escape")
    expect(overlay).to_have_attribute("data-visible", "true")
    expect(overlay.get_by_role("combobox", name="話を選ぶ")).to_be_visible()
    page.keyboard.press("Escape")
    expect(overlay).to_have_attribute("data-visible", "false")


def test_tap_zones_turn_pages_and_the_centre_opens_the_menu(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    total = len(_manifest(server_env, slug, "1"))
    _open(page, f"{base_url}/{slug}-ch-1")
    page.mouse.click(40, 300)  # left third: next in right-to-left reading
    expect(page.locator(".reader-counter")).to_have_text(f"2 / {total}")
    page.mouse.click(40, 300)
    expect(page.locator(".reader-counter")).to_have_text(f"3 / {total}")
    page.mouse.click(350, 300)  # right third: back
    expect(page.locator(".reader-counter")).to_have_text(f"2 / {total}")
    overlay = page.locator(".reader-overlay")
    expect(overlay).to_have_attribute("data-visible", "false")
    page.mouse.click(195, 300)
    expect(overlay).to_have_attribute("data-visible", "true")


def test_swipes_turn_pages_on_a_touch_screen(base_url: str, server_env, browser: Browser) -> None:
    slug = _series(server_env, "rtl")
    total = len(_manifest(server_env, slug, "1"))
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        _open(page, f"{base_url}/{slug}-ch-1")
        swipe = """([fromX, toX]) => {
          const el = document.querySelector('.reader-content');
          const at = (x) => [new Touch({identifier: 1, target: el, clientX: x, clientY: 400})];
          el.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, touches: at(fromX), changedTouches: at(fromX)}));
          el.dispatchEvent(new TouchEvent('touchend', {bubbles: true, touches: [], changedTouches: at(toX)}));
        }"""
        page.evaluate(swipe, [60, 300])  # finger drags right: next page in right-to-left reading
        expect(page.locator(".reader-counter")).to_have_text(f"2 / {total}")
        page.evaluate(swipe, [300, 60])
        expect(page.locator(".reader-counter")).to_have_text(f"1 / {total}")
    finally:
        context.close()


# ---- modes and spreads ----------------------------------------------------


def test_mode_switch_to_vertical_and_back_keeps_the_page_and_persists(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    total = len(_manifest(server_env, slug, "1"))
    _open(page, f"{base_url}/{slug}-ch-1")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    _settings(page, ("読み方", "縦スクロール"))
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
    expect(page.locator(".reader-strip img")).to_have_count(total)
    expect(page.locator(".reader-root")).to_have_attribute("data-page", "2")
    page.reload()
    wait_for_hydration(page)
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
    _settings(page, ("読み方", "ページめくり"), ("画像の大きさ", "幅に合わせる"))
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "paged")
    width = page.locator(".reader-stage img").first.evaluate("e => e.getBoundingClientRect().width")
    assert abs(width - 390) <= 1


def test_double_view_pairs_pages_and_shows_spreads_alone(base_url: str, server_env, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    slug = _series(server_env, "rtl", spreads=True)
    pages = _manifest(server_env, slug, "1")
    wide = {index for index, item in enumerate(pages) if item["width"] > item["height"]}
    _open(page, f"{base_url}/{slug}-ch-1")
    _settings(page, ("見開き", "見開き"))

    def screens() -> list[list[int]]:
        page.keyboard.press("Home")
        seen: list[list[int]] = []
        while page.locator(".reader-end").count() == 0:
            expect(page.locator(".reader-stage img").first).to_be_visible()
            seen.append(_visible_pages(page))
            page.keyboard.press("ArrowLeft")
        return seen

    shown = screens()
    assert [index for screen in shown for index in screen] == list(range(len(pages)))
    for screen in shown:
        if any(index in wide for index in screen):
            assert len(screen) == 1, f"a spread shares the screen: {screen}"
    assert shown[0] == [0, 1]
    # Right-to-left: the first page of a pair is on the right.
    page.keyboard.press("Home")
    boxes = page.locator(".reader-stage img").evaluate_all("els => els.map(e => [Number(e.dataset.pageIndex), e.getBoundingClientRect().x])")
    assert dict(boxes)[0] > dict(boxes)[1]

    _settings(page, ("見開きのずれ", "1ページずらす"))
    shifted = screens()
    assert shifted[0] == [0]
    assert shifted[1] == [1, 2] or 1 in wide or 2 in wide


# ---- loading ----------------------------------------------------------------


def test_data_saver_uses_the_smaller_images(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    first = _manifest(server_env, slug, "1")[0]
    _open(page, f"{base_url}/{slug}-ch-1")
    image = page.locator(".reader-stage img").first
    expect(image).to_have_attribute("src", first["url"])
    _settings(page, ("画質", "データセーバー"))
    expect(image).to_have_attribute("src", first["saver_url"])
    page.wait_for_function("() => { const e = document.querySelector('.reader-stage img'); return e.complete && e.naturalWidth > 0 }")


def test_the_next_pages_are_preloaded(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    pages = _manifest(server_env, slug, "1")
    _open(page, f"{base_url}/{slug}-ch-1")
    # Chapters under 60 pages are preloaded whole.
    page.wait_for_function(
        "urls => urls.every(u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u)))",
        arg=[item["url"] for item in pages],
    )


# ---- resume -----------------------------------------------------------------


def _wait_saved(page: Page, slug: str, chapter: str, page_index: int) -> None:
    page.wait_for_function(
        """([slug, chapter, index]) => JSON.parse(localStorage.getItem('manga_reading_history') || '[]')
             .some(e => e.slug === slug && e.chapter === chapter && e.page === index)""",
        arg=[slug, chapter, page_index],
    )


def test_paged_reading_resumes_on_the_same_page_after_a_reload(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    total = len(_manifest(server_env, slug, "1"))
    _open(page, f"{base_url}/{slug}-ch-1")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-counter")).to_have_text(f"4 / {total}")
    _wait_saved(page, slug, "1", 3)
    page.reload()
    wait_for_hydration(page)
    expect(page.locator(".reader-counter")).to_have_text(f"4 / {total}")
    expect(page.locator(".reader-stage img[data-page-index='3']")).to_be_visible()


def test_vertical_reading_resumes_inside_a_tall_page_after_a_reload(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "vertical")
    _open(page, f"{base_url}/{slug}-ch-1")
    second = page.locator(".reader-strip img").nth(1)
    top = second.evaluate("e => e.getBoundingClientRect().top + window.scrollY")
    height = second.evaluate("e => e.getBoundingClientRect().height")
    target = top + height * 0.4
    page.evaluate("y => window.scrollTo(0, y)", target)
    page.wait_for_function(
        """slug => JSON.parse(localStorage.getItem('manga_reading_history') || '[]')
             .some(e => e.slug === slug && e.page === 1 && e.offset > 0.35 && e.offset < 0.45)""",
        arg=slug,
    )
    page.reload()
    wait_for_hydration(page)
    expect(page.locator(".reader-root")).to_have_attribute("data-page", "1")
    page.wait_for_function("y => Math.abs(window.scrollY - y) < 8", arg=target)


# ---- chapters -------------------------------------------------------------


def test_the_end_card_leads_to_the_next_chapter_and_the_last_one_back_to_the_title(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    _open(page, f"{base_url}/{slug}-ch-1")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    end = page.locator(".reader-end")
    expect(end).to_be_visible()
    end.get_by_role("link", name=re.compile("次の話へ")).click()
    expect(page).to_have_url(re.compile(rf"/{slug}-ch-(?!1\b)[0-9.]+"))
    expect(page.locator(".reader-counter")).to_have_text(re.compile(r"^1 / \d+$"))
    page.wait_for_function("() => { const e = document.querySelector('.reader-stage img'); return e && e.complete && e.naturalWidth > 0 }")

    # The chapter selector lists every chapter; the last one has no next.
    options = page.get_by_role("combobox", name="話を選ぶ").locator("option")
    last_url = options.last.get_attribute("value")
    if not page.url.endswith(last_url):
        _menu(page)
        page.get_by_role("combobox", name="話を選ぶ").select_option(last_url)
        expect(page).to_have_url(base_url + last_url)
        expect(page.locator("img.reader-page").first).to_be_visible()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-end")).to_contain_text("最新話まで読みました")
    page.locator(".reader-end").get_by_role("link", name=re.compile("作品ページへ戻る")).click()
    expect(page).to_have_url(f"{base_url}/manga/{slug}")


def test_a_view_is_counted_once_per_visitor_per_day_not_per_reload(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "vertical")

    def views() -> int:
        with _db(server_env) as db:
            return db.execute(
                "select chapter.views from chapter join series on series.id = chapter.series_id "
                "where series.slug = ? and chapter.number_hundredths = 200",
                (slug,),
            ).fetchone()[0]

    before = views()
    _open(page, f"{base_url}/{slug}-ch-2")
    page.wait_for_function("() => (localStorage.getItem('manga_reader_views') || '').includes('/2')")
    assert views() == before + 1
    page.reload()
    wait_for_hydration(page)
    expect(page.locator("img.reader-page").first).to_be_visible()
    page.wait_for_timeout(500)
    assert views() == before + 1


@pytest.mark.parametrize(
    "suffix",
    [
        "-ch-999",
        "-ch-1-not-the-slug",
        "-ch-",
        "-ch-1.x",
        "-ch-1.5.5",
    ],
)
def test_unknown_or_malformed_chapters_answer_404(base_url: str, server_env, page: Page, suffix: str) -> None:
    slug = _series(server_env, "rtl")
    assert httpx.get(f"{base_url}/{slug}{suffix}", timeout=10).status_code == 404
    response = page.goto(f"{base_url}/{slug}{suffix}")
    assert response is not None and response.status == 404
    wait_for_hydration(page)
    expect(page.locator(".reader-root")).to_have_count(0)
    expect(page.get_by_text("ページが見つかりません")).to_be_visible()


def test_a_manifest_encrypted_with_another_key_shows_an_error_with_retry(base_url: str, server_env, page: Page) -> None:
    slug = _series(server_env, "rtl")
    path = _manifest_path(server_env, slug, "2")
    original = path.read_bytes()
    data, iv = encrypt_text(json.dumps(_manifest(server_env, slug, "2")), "5f" * 16 + "a0" * 16)
    path.write_text(json.dumps({"iv": iv, "data": data}))
    try:
        _open_error(page, f"{base_url}/{slug}-ch-2")
        expect(page.get_by_text(LOAD_ERROR)).to_be_visible()
        retry = page.get_by_role("button", name="再読み込み")
        expect(retry).to_be_visible()
        assert page.locator("img.reader-page").count() == 0
        path.write_bytes(original)
        retry.click()
        expect(page.locator("img.reader-page").first).to_be_visible()
        page.wait_for_function("() => { const e = document.querySelector('.reader-stage img'); return e && e.complete && e.naturalWidth > 0 }")
    finally:
        path.write_bytes(original)


def _open_error(page: Page, url: str) -> None:
    response = page.goto(url)
    assert response is not None and response.status == 200
    wait_for_hydration(page)
