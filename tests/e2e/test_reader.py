"""The reader as a visitor uses it, in Chromium against the demo library:
pages from the encrypted manifest, both modes, keys, taps, swipes, spreads,
fits, loading, the next chapter, 404s and a manifest that cannot be
decrypted. Resume and view counting: test_reader_progress.py."""

from __future__ import annotations

import math
import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import MARK_FIRST_HTML, wait_for_hydration
from tests.e2e.reader_helpers import (
    chapter_numbers,
    choose,
    counter,
    image_decoded,
    manifest,
    manifest_path,
    open_chapter,
    series,
    series_of,
    series_with_chapters,
    show_menu,
    visible_pages,
    write_manifest,
)

LOAD_ERROR = "ページを読み込めませんでした"


# ---- opening a chapter ----------------------------------------------------


def test_a_manga_chapter_opens_paged_right_to_left_and_every_page_decodes(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    pages = manifest(server_env, slug, "1")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    root = page.locator(".reader-root")
    expect(root).to_have_attribute("data-mode", "paged")
    expect(root).to_have_attribute("data-direction", "rtl")
    first = page.locator(".reader-stage img").first
    expect(first).to_have_attribute("fetchpriority", "high")
    assert first.get_attribute("width") == str(pages[0]["width"])
    assert first.get_attribute("height") == str(pages[0]["height"])
    for index in range(len(pages)):
        expect(counter(page)).to_have_text(f"{index + 1} / {len(pages)}")
        image = page.locator(f".reader-stage img[data-page-index='{index}']")
        expect(image).to_have_attribute("alt", re.compile(rf".+ 第1話.* {index + 1}ページ目"))
        image_decoded(page, f".reader-stage img[data-page-index='{index}']")
        page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-end")).to_be_visible()


def test_a_webtoon_opens_as_a_vertical_strip_and_every_page_decodes(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    pages = manifest(server_env, slug, "1")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
    images = page.locator(".reader-strip img.reader-page")
    expect(images).to_have_count(len(pages))
    # Every box has its size before its image arrives.
    sizes = images.evaluate_all("els => els.map(e => [e.getAttribute('width'), e.getAttribute('height'), e.getBoundingClientRect().height > 0])")
    assert sizes == [[str(p["width"]), str(p["height"]), True] for p in pages]
    for index in range(len(pages)):
        images.nth(index).scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.querySelectorAll('.reader-strip img.reader-page')].every(e => e.complete && e.naturalWidth > 0)")
    expect(page.locator(".reader-end")).to_be_attached()


def test_a_chapter_of_tall_strips_reads_as_a_webtoon_in_a_manga_series(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    number = chapter_numbers(server_env, slug)[-1]
    path = manifest_path(server_env, slug, number)
    original = path.read_bytes()
    pages = manifest(server_env, slug, number)
    strips = [{**item, "width": 720, "height": 2400} for item in pages]
    write_manifest(server_env, slug, number, strips)
    try:
        open_chapter(page, f"{base_url}/{slug}-ch-{number}")
        expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
        expect(page.locator(".reader-strip img.reader-page")).to_have_count(len(pages))
    finally:
        path.write_bytes(original)


# ---- keys, taps, swipes ---------------------------------------------------


def test_arrow_keys_follow_the_reading_direction(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"2 / {total}")
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_have_text(f"1 / {total}")
    page.keyboard.press("Space")
    expect(counter(page)).to_have_text(f"2 / {total}")
    page.keyboard.press("End")
    expect(counter(page)).to_have_text(f"{total} / {total}")
    page.keyboard.press("Home")
    expect(counter(page)).to_have_text(f"1 / {total}")
    choose(page, ("めくる方向", "左から右"))
    expect(page.locator(".reader-root")).to_have_attribute("data-direction", "ltr")
    page.keyboard.press("ArrowRight")
    expect(counter(page)).to_have_text(f"2 / {total}")
    page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"1 / {total}")


def test_a_direction_is_chosen_per_series_and_作品の設定_restores_the_series_own(base_url: str, server_env, page: Page) -> None:
    first, second = series_of(server_env, "rtl", 2)
    open_chapter(page, f"{base_url}/{first}-ch-1")
    choose(page, ("めくる方向", "左から右"))
    expect(page.locator(".reader-root")).to_have_attribute("data-direction", "ltr")
    # Another series keeps its own direction.
    open_chapter(page, f"{base_url}/{second}-ch-1")
    expect(page.locator(".reader-root")).to_have_attribute("data-direction", "rtl")
    show_menu(page)
    page.get_by_role("button", name="⚙ 設定").click()
    expect(page.get_by_role("dialog").get_by_role("button", name="作品の設定")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    # The first one remembers the choice, until 作品の設定 gives it back.
    open_chapter(page, f"{base_url}/{first}-ch-2")
    expect(page.locator(".reader-root")).to_have_attribute("data-direction", "ltr")
    choose(page, ("めくる方向", "作品の設定"))
    expect(page.locator(".reader-root")).to_have_attribute("data-direction", "rtl")


def test_escape_shows_and_hides_the_overlay_even_from_the_slider_and_the_selector(base_url: str, server_env, page: Page) -> None:
    open_chapter(page, f"{base_url}/{series(server_env, 'rtl')}-ch-1")
    overlay = page.locator(".reader-overlay")
    page.keyboard.press("ArrowLeft")  # reading hides it
    expect(overlay).to_have_attribute("data-visible", "false")
    page.keyboard.press("Escape")
    expect(overlay).to_have_attribute("data-visible", "true")
    expect(overlay.get_by_role("combobox", name="話を選ぶ")).to_be_visible()
    page.keyboard.press("Escape")
    expect(overlay).to_have_attribute("data-visible", "false")
    for control in (overlay.get_by_role("slider", name="ページ"), overlay.get_by_role("combobox", name="話を選ぶ")):
        show_menu(page)
        control.focus()
        page.keyboard.press("Escape")
        expect(overlay).to_have_attribute("data-visible", "false")
        expect(control).not_to_be_focused()


def test_tap_zones_turn_pages_and_the_centre_opens_the_menu(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    page.mouse.click(40, 300)  # left third: next in right-to-left reading
    expect(counter(page)).to_have_text(f"2 / {total}")
    page.mouse.click(40, 300)
    expect(counter(page)).to_have_text(f"3 / {total}")
    page.mouse.click(350, 300)  # right third: back
    expect(counter(page)).to_have_text(f"2 / {total}")
    overlay = page.locator(".reader-overlay")
    expect(overlay).to_have_attribute("data-visible", "false")
    page.mouse.click(195, 300)
    expect(overlay).to_have_attribute("data-visible", "true")


def test_tap_zones_in_left_to_right_reading_and_swapped_for_one_hand(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    choose(page, ("めくる方向", "左から右"))
    expect(page.locator(".reader-root")).to_have_attribute("data-direction", "ltr")
    page.mouse.click(350, 300)  # right third: next in left-to-right reading
    expect(counter(page)).to_have_text(f"2 / {total}")
    page.mouse.click(350, 300)
    expect(counter(page)).to_have_text(f"3 / {total}")
    page.mouse.click(40, 300)  # left third: back
    expect(counter(page)).to_have_text(f"2 / {total}")
    choose(page, ("タップの左右", "入れ替える"))
    page.mouse.click(40, 300)  # swapped: the left thumb turns forward
    expect(counter(page)).to_have_text(f"3 / {total}")
    page.mouse.click(350, 300)
    expect(counter(page)).to_have_text(f"2 / {total}")


def _swipe(page: Page, from_x: int, to_x: int) -> None:
    page.evaluate(
        """([fromX, toX]) => {
          const el = document.querySelector('.reader-content');
          const at = (x) => [new Touch({identifier: 1, target: el, clientX: x, clientY: 400})];
          el.dispatchEvent(new TouchEvent('touchstart', {bubbles: true, touches: at(fromX), changedTouches: at(fromX)}));
          el.dispatchEvent(new TouchEvent('touchend', {bubbles: true, touches: [], changedTouches: at(toX)}));
        }""",
        [from_x, to_x],
    )


def test_swipes_turn_pages_on_a_touch_screen_and_pan_a_wide_page_first(base_url: str, server_env, browser: Browser) -> None:
    slug = series(server_env, "rtl", spreads=True)
    pages = manifest(server_env, slug, "1")
    wide = next(index for index, item in enumerate(pages) if item["width"] > item["height"])
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        open_chapter(page, f"{base_url}/{slug}-ch-1")
        _swipe(page, 60, 300)  # finger drags right: next page in right-to-left reading
        expect(counter(page)).to_have_text(f"2 / {len(pages)}")
        _swipe(page, 300, 60)
        expect(counter(page)).to_have_text(f"1 / {len(pages)}")
        # A spread drawn at the screen's height is wider than the screen: a
        # swipe pans it (right-to-left reading starts at its right edge).
        choose(page, ("画像の大きさ", "高さに合わせる"))
        for _ in range(wide):
            page.keyboard.press("ArrowLeft")
        expect(counter(page)).to_have_text(f"{wide + 1} / {len(pages)}")
        stage = page.locator(".reader-stage")
        room = stage.evaluate("s => s.scrollWidth - s.clientWidth")
        assert room > 100
        page.wait_for_function("r => Math.abs(document.querySelector('.reader-stage').scrollLeft - r) <= 1", arg=room)
        _swipe(page, 60, 300)  # towards the spread's left half: a pan, not a page
        expect(counter(page)).to_have_text(f"{wide + 1} / {len(pages)}")
        stage.evaluate("s => { s.scrollLeft = 0 }")  # the left edge is reached
        _swipe(page, 60, 300)
        expect(counter(page)).to_have_text(f"{wide + 2} / {len(pages)}")
    finally:
        context.close()


def test_keys_scroll_a_tall_page_in_the_paged_reader_before_turning_it(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    choose(page, ("読み方", "ページめくり"), ("画像の大きさ", "幅に合わせる"))
    stage = page.locator(".reader-stage")
    expect(counter(page)).to_have_text(f"1 / {total}")
    assert stage.evaluate("s => s.scrollHeight > s.clientHeight + 200")
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => document.querySelector('.reader-stage').scrollTop > 0")
    before = stage.evaluate("s => s.scrollTop")
    page.keyboard.press("Space")
    page.wait_for_function("y => document.querySelector('.reader-stage').scrollTop > y", arg=before)
    expect(counter(page)).to_have_text(f"1 / {total}")
    # The document itself does not move: only the page's box scrolls.
    assert page.evaluate("window.scrollY") == 0
    for _ in range(12):
        if page.locator(".reader-counter").inner_text() != f"1 / {total}":
            break
        page.keyboard.press("Space")
    expect(counter(page)).to_have_text(f"2 / {total}")
    # A new page starts at its top.
    expect(stage).to_have_js_property("scrollTop", 0)
    page.keyboard.press("Shift+Space")
    expect(counter(page)).to_have_text(f"1 / {total}")
    expect(stage).to_have_js_property("scrollTop", 0)


# Resolves once the window has not scrolled for ten frames in a row.
AT_REST = """() => new Promise((done) => {
  let y = window.scrollY, still = 0;
  const tick = () => {
    if (window.scrollY === y) still += 1; else { y = window.scrollY; still = 0; }
    if (still >= 10) done(true); else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


def test_keys_in_the_vertical_strip(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
    for key in ("Space", "PageDown", "ArrowDown", "ArrowRight"):
        before = page.evaluate("window.scrollY")
        page.keyboard.press(key)
        page.wait_for_function("y => window.scrollY > y", arg=before)
    # At rest first: a smooth scroll of the keys above still under way would
    # carry the strip on down past where ArrowLeft started (CI: scrollY never
    # went below it in 30 s).
    page.evaluate(AT_REST)
    before = page.evaluate("window.scrollY")
    page.keyboard.press("ArrowLeft")  # left-to-right strip: back up
    page.wait_for_function("y => window.scrollY < y", arg=before)
    page.keyboard.press("End")
    expect(page.locator(".reader-end")).to_be_in_viewport()
    # The browser's own smooth scrolls of the keys above can still be under
    # way, and one finishing after Home would carry the strip off again (see
    # the session note): Home is pressed with the strip at rest.
    page.evaluate(AT_REST)
    page.keyboard.press("Home")
    # Back at the first page's top (the strip starts under the top bar's
    # height, so the window is not scrolled to 0 exactly).
    page.wait_for_function(
        "() => { const r = document.querySelector('img.reader-page[data-page-index=\"0\"]').getBoundingClientRect(); return r.top > -4 && r.top < 4 }"
    )
    expect(page.locator(".reader-root")).to_have_attribute("data-page", "0")


# ---- modes, fits and spreads ------------------------------------------------


def test_mode_switch_to_vertical_and_back_keeps_the_page_and_persists(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    total = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    choose(page, ("読み方", "縦スクロール"))
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
    expect(page.locator(".reader-strip img.reader-page")).to_have_count(total)
    expect(page.locator(".reader-root")).to_have_attribute("data-page", "2")
    page.reload()
    wait_for_hydration(page)
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "vertical")
    choose(page, ("読み方", "ページめくり"), ("画像の大きさ", "幅に合わせる"))
    expect(page.locator(".reader-root")).to_have_attribute("data-mode", "paged")
    width = page.locator(".reader-stage img").first.evaluate("e => e.getBoundingClientRect().width")
    assert abs(width - 390) <= 1


def test_fit_height_and_original_size_in_both_modes(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    first = manifest(server_env, slug, "1")[0]
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    image = page.locator(".reader-stage img").first

    def box() -> dict:
        return image.evaluate("e => { const r = e.getBoundingClientRect(); return {w: r.width, h: r.height} }")

    # 自動 on a phone: the whole page on screen, as wide as the screen allows.
    assert abs(box()["w"] - 390) <= 1 and box()["h"] <= 844
    choose(page, ("画像の大きさ", "高さに合わせる"))
    page.wait_for_function("() => Math.abs(document.querySelector('.reader-stage img').getBoundingClientRect().height - innerHeight) <= 1")
    assert box()["w"] > 390  # wider than the screen: the stage scrolls sideways
    choose(page, ("画像の大きさ", "原寸"))
    page.wait_for_function("w => Math.abs(document.querySelector('.reader-stage img').getBoundingClientRect().width - w) <= 1", arg=first["width"])
    assert abs(box()["h"] - first["height"]) <= 1
    choose(page, ("読み方", "縦スクロール"))
    strip = page.locator(".reader-strip img").first
    expect(strip).to_be_visible()
    assert abs(strip.evaluate("e => e.getBoundingClientRect().width") - first["width"]) <= 1
    choose(page, ("画像の大きさ", "高さに合わせる"))
    # A stable viewport unit: the page is the screen's height (small viewport).
    page.wait_for_function("() => Math.abs(document.querySelector('.reader-strip img').getBoundingClientRect().height - innerHeight) <= 1")


def test_landscape_screens_show_the_whole_page_and_the_bars_span_the_window(base_url: str, server_env, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    open_chapter(page, f"{base_url}/{series(server_env, 'rtl')}-ch-1")
    rect = page.locator(".reader-stage img").first.evaluate("e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom] }")
    assert rect[0] >= 0 and rect[1] <= 720
    for bar in (".reader-overlay", ".reader-bar"):
        width = page.locator(bar).evaluate("e => e.getBoundingClientRect().width")
        assert abs(width - 1280) <= 1, bar


def test_double_view_pairs_pages_and_shows_spreads_alone(base_url: str, server_env, page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    slug = series(server_env, "rtl", spreads=True)
    pages = manifest(server_env, slug, "1")
    wide = {index for index, item in enumerate(pages) if item["width"] > item["height"]}
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    choose(page, ("見開き", "見開き"))

    def screens() -> list[list[int]]:
        page.keyboard.press("Home")
        seen: list[list[int]] = []
        while page.locator(".reader-end").count() == 0:
            expect(page.locator(".reader-stage img").first).to_be_visible()
            seen.append(visible_pages(page))
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

    choose(page, ("見開きのずれ", "1ページずらす"))
    shifted = screens()
    assert shifted[0] == [0]
    assert shifted[1] == [1, 2] or 1 in wide or 2 in wide


# ---- accessibility ------------------------------------------------------------


def test_the_settings_dialog_keeps_focus_inside_and_gives_it_back(base_url: str, server_env, page: Page) -> None:
    open_chapter(page, f"{base_url}/{series(server_env, 'rtl')}-ch-1")
    show_menu(page)
    opener = page.get_by_role("button", name="⚙ 設定")
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="表示設定")
    expect(dialog.get_by_role("button", name="閉じる")).to_be_focused()
    for _ in range(40):
        page.keyboard.press("Tab")
        assert dialog.evaluate("d => d.contains(document.activeElement)")
    for _ in range(3):
        page.keyboard.press("Shift+Tab")
        assert dialog.evaluate("d => d.contains(document.activeElement)")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(opener).to_be_focused()


def test_the_hidden_top_bar_takes_no_focus(base_url: str, server_env, page: Page) -> None:
    open_chapter(page, f"{base_url}/{series(server_env, 'rtl')}-ch-1")
    back = page.locator(".reader-bar .back-button")
    expect(back).to_be_hidden()  # a chapter opens on its page, the bars closed
    show_menu(page)
    expect(back).to_be_visible()
    page.keyboard.press("ArrowLeft")  # reading hides the bars
    expect(page.locator(".reader-overlay")).to_have_attribute("data-visible", "false")
    expect(back).to_be_hidden()
    page.keyboard.press("Tab")
    expect(back).not_to_be_focused()


# ---- loading ----------------------------------------------------------------


def _first_image_box(page: Page) -> list[float]:
    image_decoded(page, '.reader-root img[data-page-index="0"]')
    return page.locator('.reader-root img[data-page-index="0"]').evaluate(
        "e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height] }"
    )


def test_the_first_page_is_in_the_first_html_and_the_app_keeps_it_in_place(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    first = manifest(server_env, slug, "1")[0]
    html = httpx.get(f"{base_url}/{slug}-ch-1", timeout=10).text
    # A browser that has not read here reads in full quality, the first page
    # first: its AVIF where the browser shows AVIF (test_reader_avif.py), else the <img>'s.
    assert re.search(rf'<img[^>]*src="{re.escape(first["url"])}"[^>]*data-page-index="0"', html)
    preloads = [tag.lower() for tag in re.findall(r"<link[^>]*>", html) if 'rel="preload"' in tag]
    assert any(f'href="{first["avif"]}"' in tag and 'fetchpriority="high"' in tag for tag in preloads), preloads
    # With the app's JavaScript held back, the reader's own page is there, sized and styled.
    page.route("**/assets/*.js", lambda route: route.abort())
    page.goto(f"{base_url}/{slug}-ch-1")
    painted = _first_image_box(page)
    assert painted[2] > 300 and painted[1] > 0, painted  # the screen's width, centred as the reader draws it
    page.unroute("**/assets/*.js")
    # The app takes that very element over, where it was.
    page.add_init_script(MARK_FIRST_HTML % repr('.reader-root img[data-page-index="0"]'))
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    kept = page.evaluate("() => (window.__firstHtml || []).map((e) => e.isConnected && e.__fromFirstHtml)")
    assert kept == [True], "the app replaced the page the server drew"
    box = _first_image_box(page)
    assert all(abs(a - b) <= 0.5 for a, b in zip(box, painted, strict=True)), (box, painted)


# Every largest-paint report of the page: what was drawn, and when it was on screen.
RECORD_LARGEST_PAINTS = """
window.__largest = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__largest.push({ at: entry.startTime, page: entry.element && entry.element.dataset.pageIndex });
}).observe({ type: "largest-contentful-paint", buffered: true });
"""


def test_the_first_page_waits_for_no_stylesheet_and_the_app_for_the_first_page_on_screen(
    base_url: str, server_env, page: Page
) -> None:
    slug = series(server_env, "rtl")
    head = httpx.get(f"{base_url}/{slug}-ch-1", timeout=10).text.split("</head>")[0]
    # The reader's styles come inside its HTML: its first frame waits for no other response.
    assert not re.search(r'<link[^>]*rel="stylesheet"', head), re.findall(r"<link[^>]*>", head)
    page.add_init_script(RECORD_LARGEST_PAINTS)
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    shown = page.evaluate("() => window.__largest.filter((paint) => paint.page === '0').map((paint) => paint.at)")
    app = page.evaluate("() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js')).map((e) => e.startTime)")
    assert shown and app, (shown, app)
    # Its scripts are asked for only once the first page is on the screen.
    assert min(app) >= shown[0], (shown, sorted(app)[:3])


@pytest.mark.parametrize("direction", ["rtl", "vertical"])  # the demo library has no ltr series
def test_a_new_visitor_and_a_returning_one_see_the_same_first_page(
    base_url: str, server_env, page: Page, direction: str
) -> None:
    """A returning browser (the reader's cookie, from another chapter) with
    the default settings is drawn the same first page in the same place."""
    slug = series(server_env, direction)
    url = f"{base_url}/{slug}-ch-1"
    page.route("**/assets/*.js", lambda route: route.abort())
    drawn = {}
    for visitor in ("new", "returning"):
        if visitor == "returning":  # it read chapter 2 last, from its first page
            page.context.add_cookies([{"name": "manga_reader_first", "value": f"0:{slug}/2:0", "url": base_url}])
        page.goto(url)
        drawn[visitor] = [page.locator(".reader-root").get_attribute("data-mode"), *_first_image_box(page)]
    assert drawn["new"][0] == ("vertical" if direction == "vertical" else "paged")
    assert drawn["new"][0] == drawn["returning"][0]
    assert all(abs(a - b) < 0.5 for a, b in zip(drawn["new"][1:], drawn["returning"][1:], strict=True)), drawn


def test_the_first_html_follows_the_data_saver_choice(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "vertical")
    first = manifest(server_env, slug, "1")[0]
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    choose(page, ("画質", "データセーバー"))
    # Reopened later, with the app's JavaScript held back: only the smaller image.
    later = page.context.new_page()
    later.route("**/assets/*.js", lambda route: route.abort())
    later.goto(f"{base_url}/{slug}-ch-1")
    expect(later.locator("link[rel=preload][as=image][fetchpriority=high]")).to_have_attribute("href", first["saver_avif"])
    shown = image_decoded(later, '.reader-root img[data-page-index="0"]')
    assert later.locator('.reader-root img[data-page-index="0"]').get_attribute("src") == first["saver_url"]
    assert shown.endswith(first["saver_avif"])
    assert not _requested(later, first["url"]) and not _requested(later, first["avif"])


def test_data_saver_uses_the_smaller_images(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    first = manifest(server_env, slug, "1")[0]
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    image = page.locator(".reader-stage img").first
    expect(image).to_have_attribute("src", first["url"])
    choose(page, ("画質", "データセーバー"))
    expect(image).to_have_attribute("src", first["saver_url"])
    image_decoded(page, ".reader-stage img")


def _requested(page: Page, url: str) -> bool:
    return page.evaluate("u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u))", url)


def test_a_chapter_under_60_pages_is_preloaded_whole(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    pages = manifest(server_env, slug, "1")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    page.wait_for_function(
        "urls => urls.every(u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u)))",
        arg=[item["avif"] for item in pages],
    )


def test_a_chapter_of_60_pages_or_more_preloads_only_the_next_few(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    path = manifest_path(server_env, slug, "2")
    original = path.read_bytes()
    base = manifest(server_env, slug, "2")
    # 64 distinct URLs (the media server ignores the query string).
    long = [{**base[index % len(base)], "avif": f"{base[index % len(base)]['avif']}?p={index}"} for index in range(64)]
    write_manifest(server_env, slug, "2", long)
    try:
        open_chapter(page, f"{base_url}/{slug}-ch-2")
        expect(counter(page)).to_have_text("1 / 64")
        page.wait_for_function(
            "urls => urls.every(u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u)))",
            arg=[item["avif"] for item in long[1:7]],
        )
        # The six ahead were asked for together; nothing further was.
        assert not any(_requested(page, item["avif"]) for item in long[7:])
        page.keyboard.press("ArrowLeft")
        page.wait_for_function("u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u))", arg=long[7]["avif"])
        assert not any(_requested(page, item["avif"]) for item in long[8:])
    finally:
        path.write_bytes(original)


def test_the_next_chapters_first_pages_are_fetched_near_the_end(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    total = len(manifest(server_env, slug, "1"))
    following = manifest(server_env, slug, "2")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    page.wait_for_function("n => performance.getEntriesByType('resource').filter(r => r.name.includes('/media/')).length >= n", arg=total)
    assert not _requested(page, following[0]["avif"])
    # From three quarters of the chapter on.
    reach = math.ceil(total * 0.75)
    for _ in range(reach - 1):
        page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"{reach} / {total}")
    # Its manifest was read on the server; its first pages now warm the cache.
    page.wait_for_function(
        "urls => urls.every(u => performance.getEntriesByType('resource').some(r => r.name.endsWith(u)))",
        arg=[item["avif"] for item in following[:2]],
    )


# ---- chapters -------------------------------------------------------------


def test_the_end_card_leads_to_the_next_chapter_and_the_last_one_back_to_the_title(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    end = page.locator(".reader-end")
    expect(end).to_be_visible()
    end.get_by_role("link", name=re.compile("次の話へ")).click()
    expect(page).to_have_url(re.compile(rf"/{slug}-ch-(?!1\b)[0-9.]+"))
    expect(counter(page)).to_have_text(re.compile(r"^1 / \d+$"))
    image_decoded(page, ".reader-stage img")

    # The chapter selector lists every chapter; the last one has no next.
    options = page.get_by_role("combobox", name="話を選ぶ").locator("option")
    last_url = options.last.get_attribute("value")
    if not page.url.endswith(last_url):
        show_menu(page)
        page.get_by_role("combobox", name="話を選ぶ").select_option(last_url)
        expect(page).to_have_url(base_url + last_url)
        expect(page.locator("img.reader-page").first).to_be_visible()
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-end")).to_contain_text(re.compile("(最新|最終)話まで読みました"))
    page.locator(".reader-end").get_by_role("link", name=re.compile("作品ページへ戻る")).click()
    expect(page).to_have_url(f"{base_url}/manga/{slug}")


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
    slug = series(server_env, "rtl")
    assert httpx.get(f"{base_url}/{slug}{suffix}", timeout=10).status_code == 404
    response = page.goto(f"{base_url}/{slug}{suffix}")
    assert response is not None and response.status == 404
    wait_for_hydration(page)
    expect(page.locator(".reader-root")).to_have_count(0)
    expect(page.get_by_text("ページが見つかりません")).to_be_visible()


def test_a_manifest_encrypted_with_another_key_shows_an_error_with_retry(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    path = manifest_path(server_env, slug, "2")
    original = path.read_bytes()
    write_manifest(server_env, slug, "2", manifest(server_env, slug, "2"), key="5f" * 16 + "a0" * 16)
    try:
        response = page.goto(f"{base_url}/{slug}-ch-2")
        assert response is not None and response.status == 200
        wait_for_hydration(page)
        expect(page.get_by_text(LOAD_ERROR)).to_be_visible()
        retry = page.get_by_role("button", name="再読み込み")
        expect(retry).to_be_visible()
        assert page.locator(".reader-root img.reader-page").count() == 0
        path.write_bytes(original)
        retry.click()
        expect(page.locator(".reader-root img.reader-page").first).to_be_visible()
        image_decoded(page, ".reader-stage img")
    finally:
        path.write_bytes(original)


# ---- the chapter's ends ------------------------------------------------------


@pytest.mark.parametrize("mode", ["paged", "vertical"])
def test_back_from_the_first_page_opens_the_previous_chapter_at_its_last_page(
    base_url: str, server_env, page: Page, mode: str
) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    last = len(manifest(server_env, slug, "1"))
    open_chapter(page, f"{base_url}/{slug}-ch-2")
    if mode == "vertical":
        choose(page, ("読み方", "縦スクロール"))
        page.evaluate("window.scrollTo(0, 0)")
    # The side key that goes back in this chapter's reading direction.
    back = "ArrowRight" if page.locator(".reader-root").get_attribute("data-direction") == "rtl" else "ArrowLeft"
    page.keyboard.press(back)
    page.wait_for_url(re.compile(rf"/{slug}-ch-1(-[a-z0-9-]+)?$"))
    # The counter is there whether the overlay shows or not (it hides by itself).
    expect(counter(page)).to_have_text(f"{last} / {last}")


def test_the_top_bar_names_the_chapter_and_the_tab_keeps_the_site_name(base_url: str, server_env, page: Page) -> None:
    slug = series(server_env, "rtl")
    open_chapter(page, f"{base_url}/{slug}-ch-1")
    bar = page.locator(".reader-bar-title")
    expect(bar).to_contain_text("第1話")
    assert "漫画ひろば" not in bar.inner_text()
    assert page.title().endswith("| 漫画ひろば")
