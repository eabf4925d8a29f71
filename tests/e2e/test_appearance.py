"""How pages look to a visitor on a phone: tall covers, Japanese line
breaks, the search page's one box and its tabs, the not-found pages, the
back control and crawler hints of filter links."""

from __future__ import annotations

import io
import json
from pathlib import Path

import httpx
import pytest
from PIL import Image, ImageChops, ImageStat
from playwright.sync_api import Browser, Locator, Page, expect

from manga_app.core import routes
from manga_app.core.phrases import boundaries
from tests.e2e.conftest import ROOT, guarded_context, wait_for_hydration
from tests.e2e.reader_helpers import HISTORY_KEY

AXE = (ROOT / "tools/testing/node_modules/axe-core/axe.min.js").read_text()


def _items(base_url: str) -> list[dict]:
    return httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"]


@pytest.fixture(scope="module")
def tall(base_url: str) -> dict:
    """A demo series whose cover is much taller than a card (a webtoon: the
    cover page on top of its first strip, 320 x 640)."""
    for item in _items(base_url):
        width, height = Image.open(io.BytesIO(httpx.get(base_url + item["cover"], timeout=10).content)).size
        if height / width > 1.8:
            return item
    raise AssertionError("the demo library has no series with a tall cover")


def _difference(one: Image.Image, other: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(one, other)).mean)


def assert_shows_the_top(page: Page, image: Locator) -> None:
    """What the visitor sees of `image` is the top of the cover (its title
    lettering), not its middle: the screenshot is nearer a top crop of the
    file than a centre crop."""
    image.scroll_into_view_if_needed()
    expect(image).to_be_visible()
    page.wait_for_function("e => e.complete && e.naturalWidth > 0", arg=image.element_handle())
    source = Image.open(io.BytesIO(httpx.get(image.evaluate("e => e.currentSrc"), timeout=10).content)).convert("RGB")
    shot = Image.open(io.BytesIO(image.screenshot())).convert("RGB")
    width, height = source.size
    shown = round(width * shot.height / shot.width)
    assert shown < height, "the cover is not taller than its box"
    top = source.crop((0, 0, width, shown)).resize(shot.size)
    middle = (height - shown) // 2
    centre = source.crop((0, middle, width, middle + shown)).resize(shot.size)
    assert _difference(shot, top) < _difference(shot, centre), image


def _cover_of(page: Page, scope: str, item: dict) -> Locator:
    return page.locator(f"{scope} img[src='{item['cover_small'] or item['cover']}']").first


def test_tall_covers_show_their_top_in_every_kind_of_card(base_url: str, page: Page, tall: dict) -> None:
    page.goto(base_url + "/")
    wait_for_hydration(page)
    home = page.locator(f"main img.cover[src='{tall['cover_small']}']")
    expect(home.first).to_be_visible()
    for index in range(home.count()):  # the update rows and the shelves
        assert_shows_the_top(page, home.nth(index))
    page.goto(base_url + routes.genre_url(tall["genres"][0]))
    assert_shows_the_top(page, _cover_of(page, "main .card-grid", tall))
    page.goto(base_url + routes.search_url(q=tall["title"]))
    assert_shows_the_top(page, _cover_of(page, "main .card-grid", tall))
    page.goto(base_url + routes.manga_url(tall["slug"]))
    assert_shows_the_top(page, page.locator("main img.title-cover"))
    # History and library shelves draw the same shelf item.
    entry = {"slug": tall["slug"], "title": tall["title"], "cover": tall["cover_small"], "chapter": "1",
             "chapter_title": "", "page": 0, "offset": 0.0, "read_at": "2026-01-01T00:00:00Z", "read": ["1"]}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [HISTORY_KEY, json.dumps([entry])])
    page.goto(base_url + routes.HISTORY)
    assert_shows_the_top(page, page.locator("main img.shelf-cover").first)


_LINE_BREAKS = """
element => {
  // Where the element's text moves to a new line, as offsets into its text.
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let text = "", last = null;
  const breaks = [];
  for (let node; (node = walker.nextNode());) {
    for (let i = 0; i < node.data.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect && rect.width > 0) {
        if (last !== null && rect.top > last + 2) breaks.push(text.length);
        last = rect.top;
      }
      text += node.data[i];
    }
  }
  return { text, breaks, width: element.getBoundingClientRect().width };
}
"""

_STYLED = """() => document.fonts.status === "loaded" && [...document.querySelectorAll('link[rel="stylesheet"]')]
  .every(link => link.sheet) && [...document.styleSheets].some(sheet => [...sheet.cssRules].some(rule => rule.selectorText === ".phrased"))"""
_SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def resize(page: Page, width: int, height: int) -> None:
    """A new viewport, measured only once the page's own resize handlers
    (the reader redraws its screen) have drawn a frame at that size."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(_SETTLED)


def _wordlike(char: str) -> bool:
    return char.isascii() and char.isalnum() or "Ａ" <= char <= "Ｚ" or "ａ" <= char <= "ｚ" or "０" <= char <= "９"


def assert_breaks_between_phrases(element: Locator) -> int:
    """Every line break of `element` falls between phrases (or at a space),
    never inside a word or a Latin run; the number of breaks."""
    # Line breaks as drawn with the site's stylesheet (`.phrased`): a reader
    # route (an unknown chapter's 404, the end card) draws its first frames
    # with the reader's own small rules and links the site's once the app
    # has started, so under load the site's may still be on its way.
    element.page.wait_for_function(_STYLED)
    found = element.evaluate(_LINE_BREAKS)
    text, breaks = found["text"], found["breaks"]
    allowed = set(boundaries(text))
    for at in breaks:
        assert not (_wordlike(text[at - 1]) and _wordlike(text[at])), f"a word split: {text[:at]} / {text[at:]}"
        assert at in allowed or text[at - 1] == " " or text[at] == " ", (
            f"a phrase split at {found['width']:.0f} px: {text[:at]} / {text[at:]}")
    return len(breaks)


def test_titles_and_headings_break_between_phrases(base_url: str, page: Page) -> None:
    page.goto(base_url + routes.SEARCH)
    wait_for_hydration(page)
    cards = page.locator("main .card-grid .card-title")
    expect(cards.first).to_be_visible()
    wrapped = sum(assert_breaks_between_phrases(cards.nth(index)) for index in range(cards.count()))
    assert wrapped > 0, "no title was long enough to wrap: the test checks nothing"
    # (The search folds full-width Latin to half-width: the heading shows SPY×FAMILY.)
    for query in ("最後の晩餐はカレーで", "SPY×FAMILYのObservation日記を書く"):
        page.goto(base_url + routes.search_url(q=query))
        expect(page.locator("h1")).to_have_text(f"「{query}」の検索結果")
        assert assert_breaks_between_phrases(page.locator("h1")) > 0
    title = next(item for item in _items(base_url) if len(item["title"]) >= 10)
    page.set_viewport_size({"width": 320, "height": 700})
    page.goto(base_url + routes.manga_url(title["slug"]))
    assert assert_breaks_between_phrases(page.locator("h1.title-name")) > 0


def _axe(page: Page, rules: list[str]) -> list[str]:
    """axe-core's violations of `rules` on the page as it is now."""
    page.evaluate(AXE)
    found = page.evaluate(
        "rules => axe.run(document, {runOnly: {type: 'rule', values: rules}})"
        ".then(r => r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))",
        rules,
    )
    return found


def test_the_search_page_has_one_search_box_and_every_sort_tab_in_view(base_url: str, page: Page) -> None:
    page.goto(base_url + routes.search_url(q="の"))
    wait_for_hydration(page)
    expect(page.locator("main .card-grid .card").first).to_be_visible()
    boxes = page.locator("input[name=q]:visible")
    expect(boxes).to_have_count(1)
    tabs = page.get_by_role("navigation", name="並び替え").get_by_role("link")
    expect(tabs.filter(has_text="タイトル順")).to_have_count(1)
    for index in range(tabs.count()):
        box = tabs.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, tabs.nth(index).inner_text()
        # Not under anything, not clipped by a scrolling row: a tap reaches it.
        assert tabs.nth(index).evaluate(
            "e => { const r = e.getBoundingClientRect(); return e.contains(document.elementFromPoint(r.right - 4, r.top + r.height / 2)); }"
        ), tabs.nth(index).inner_text()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert _axe(page, ["landmark-unique"]) == []


def test_genre_filter_chips_tell_crawlers_not_to_follow_them(base_url: str, page: Page) -> None:
    raw = httpx.get(base_url + routes.SEARCH, timeout=10).text
    page.goto(base_url + routes.SEARCH)
    wait_for_hydration(page)
    page.get_by_text("絞り込み（ジャンル・状態）").click()
    chips = page.get_by_role("list", name="ジャンルで絞り込み").get_by_role("link")
    expect(chips.first).to_be_visible()
    for index in range(chips.count()):
        assert chips.nth(index).get_attribute("rel") == "nofollow"
    # Not as CSS in an inline style element (which the Nu checker flags too).
    assert "nofollow" not in "".join(page.locator("style").all_text_contents())
    assert "rel:nofollow" not in raw.replace(" ", "")


@pytest.mark.parametrize("kind", ["unknown path", "unknown chapter of a known series"])
def test_not_found_pages_look_like_the_site_offer_search_and_link_the_series(base_url: str, page: Page, kind: str) -> None:
    item = _items(base_url)[0]
    path = "/no-such-page" if kind == "unknown path" else f"/{item['slug']}-ch-9999"
    response = page.goto(base_url + path)
    assert response is not None and response.status == 404
    wait_for_hydration(page)
    expect(page.get_by_role("heading", level=1, name="ページが見つかりません")).to_be_visible()
    assert assert_breaks_between_phrases(page.locator("main .not-found-message")) > 0
    # No stock illustration: the site's own panel.
    expect(page.locator("main .ant-result, main img")).to_have_count(0)
    series = page.get_by_role("link", name=f"「{item['title']}」の作品ページへ")
    if kind == "unknown path":
        expect(series).to_have_count(0)
    else:
        expect(series).to_have_attribute("href", routes.manga_url(item["slug"]))
    assert _axe(page, ["color-contrast", "page-has-heading-one", "landmark-unique"]) == []
    boxes = page.locator("input[name=q]:visible")
    expect(boxes).to_have_count(1)
    boxes.fill("配達")
    boxes.press("Enter")
    page.wait_for_url("**/search?q=*")
    expect(page.locator("main .card-grid .card-title mark").first).to_have_text("配達")
    if kind != "unknown path":
        page.go_back()
        page.get_by_role("link", name=f"「{item['title']}」の作品ページへ").click()
        expect(page.locator("h1.title-name")).to_have_text(item["title"])


# How the message breaks its lines (at phrases, with the site's `.phrased` rules).
_MESSAGE_LOOK = """() => {
  const style = getComputedStyle(document.querySelector("main .not-found-message"));
  return [style.wordBreak, style.overflowWrap, style.lineBreak, style.fontSize, style.color];
}"""


def test_an_unknown_chapter_looks_like_the_site_before_the_app_starts(base_url: str, browser: Browser) -> None:
    # Before the app starts (here: never, JavaScript off), a reader path that names
    # no chapter is the 404 page, drawn with the site's stylesheet like any other:
    # the same header, to the pixel, and the message broken between phrases.
    item = _items(base_url)[0]
    with guarded_context(browser, java_script_enabled=False) as context:
        page = context.new_page()
        headers, messages = {}, {}
        for path in ("/no-such-page", f"/{item['slug']}-ch-9999"):
            response = page.goto(base_url + path)
            assert response is not None and response.status == 404
            expect(page.get_by_role("heading", level=1, name="ページが見つかりません")).to_be_visible()
            box = page.locator("header").first.bounding_box()
            assert box is not None
            headers[path] = Image.open(io.BytesIO(page.screenshot(clip=box))).convert("RGB")
            messages[path] = page.evaluate(_MESSAGE_LOOK)
        chapter = f"/{item['slug']}-ch-9999"
        assert messages[chapter] == messages["/no-such-page"]
        assert headers[chapter].size == headers["/no-such-page"].size
        assert ImageChops.difference(headers[chapter], headers["/no-such-page"]).getbbox() is None, "the headers differ"


def _back_hrefs(page: Page) -> list[str]:
    # Every back control on the page: on a '//' path the browser's router
    # reads another page than the server rendered, and both stay (reported).
    back = page.get_by_role("link", name="戻る", exact=True)
    expect(back.first).to_be_visible()
    return [href or "" for href in back.evaluate_all("links => links.map(a => a.getAttribute('href'))")]


def _in_site(hrefs: list[str]) -> bool:
    return all(href.startswith("/") and not href.startswith("//") and "\\" not in href for href in hrefs)


def test_the_back_control_never_leads_off_the_site(base_url: str, page: Page) -> None:
    for path in ("//evil.example/manga/x",):
        # The web layer answers a repeated-slash path with a 308 to the same
        # path collapsed on this origin (manga_app/web/slashes.py), never to
        # another host; the collapsed path is the 404 checked below.
        moved = httpx.get(base_url + path, timeout=10)
        assert moved.status_code == 308
        assert moved.headers["location"] == "/evil.example/manga/x"
        raw = httpx.get(base_url + path, timeout=10, follow_redirects=True)
        assert raw.status_code == 404
        assert str(raw.url) == base_url + "/evil.example/manga/x"
        assert 'href="//evil' not in raw.text
        response = page.goto(base_url + path)
        assert response is not None and response.status == 404
        assert page.url == base_url + "/evil.example/manga/x"
        wait_for_hydration(page)
        assert _in_site(_back_hrefs(page)), _back_hrefs(page)
        # Moving on inside the site, the bad path is never a back target.
        page.get_by_role("link", name="ジャンル一覧").first.click()
        page.wait_for_url("**/genres")
        expect(page.get_by_role("heading", level=1, name="ジャンル一覧").first).to_be_visible()
        assert _in_site(_back_hrefs(page)), _back_hrefs(page)
        page.get_by_role("link", name="戻る", exact=True).first.click()
        page.wait_for_load_state()
        assert page.url.startswith(base_url + "/"), page.url
