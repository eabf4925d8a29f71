"""The application shell as a visitor and a crawler see it: layout, head
tags before and after JavaScript, robots, analytics, install metadata, 404s,
styles at first paint and the back control."""

from __future__ import annotations

import json
import re

import httpx
from playwright.sync_api import Page, expect

from tests.e2e.conftest import GA_ID, SITE_ORIGIN, wait_for_hydration
from tests.e2e.head_tags import with_head_tags
from tests.e2e.reader_helpers import open_chapter, show_menu

GTAG_PATTERN = "https://www.googletagmanager.com/gtag/js**"


def _raw(url: str) -> httpx.Response:
    return httpx.get(url, timeout=10, follow_redirects=False)


def test_home_uses_the_site_layout_with_header_and_footer(base_url: str, page: Page) -> None:
    page.goto(base_url + "/")
    layout = page.locator("[data-layout=site]")
    expect(layout).to_be_visible()
    header = page.locator("header.site-header")
    expect(header.get_by_role("link", name=re.compile("トップへ"))).to_be_visible()
    expect(header.get_by_role("combobox")).to_be_visible()
    expect(header.get_by_role("link", name="ジャンル")).to_be_visible()
    expect(page.locator("#sign-in-area")).to_be_visible()
    expect(page.locator("footer.site-footer")).to_be_visible()
    expect(page.locator("[data-layout=reader]")).to_have_count(0)


def test_first_html_response_carries_the_page_head_before_javascript(base_url: str) -> None:
    response = _raw(base_url + "/")
    html = with_head_tags(response.text)
    assert response.status_code == 200
    assert html.count("<title>") == 1
    assert "<title>漫画ひろば | まんがひろば | Manga Hiroba | 生漫画ひろば</title>" in html
    assert re.search(r'<meta name="description" content="[^"]*生漫画[^"]*"', html)
    assert f'<link rel="canonical" href="{SITE_ORIGIN}/"' in html
    assert f'<meta property="og:url" content="{SITE_ORIGIN}/"' in html
    assert re.search(r'<meta property="og:title" content="漫画ひろば[^"]*"', html)
    assert re.search(r'<meta property="og:description" content="[^"]*生漫画[^"]*"', html)
    # Crawlers need an absolute image URL, and the image must really be there.
    og_image = re.search(r'<meta property="og:image" content="([^"]+)"', html).group(1)
    assert og_image.startswith(SITE_ORIGIN + "/")
    image = _raw(base_url + og_image.removeprefix(SITE_ORIGIN))
    assert image.status_code == 200 and image.headers["content-type"].startswith("image/")
    assert '<html lang="ja"' in html
    ld = json.loads(re.search(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html).group(1))
    assert ld["@type"] == "WebSite"
    assert ld["potentialAction"]["@type"] == "SearchAction"


def test_after_hydration_there_is_exactly_one_title_canonical_and_description(base_url: str, page: Page) -> None:
    page.goto(base_url + "/")
    wait_for_hydration(page)
    assert page.locator("title").count() == 1
    assert page.locator("meta[name=description]").count() == 1
    assert page.locator("link[rel=canonical]").count() == 1
    for prop in ("og:url", "og:title", "og:description", "og:image"):
        assert page.locator(f"meta[property='{prop}']").count() == 1, prop
    assert page.locator("link[rel=canonical]").get_attribute("href") == f"{SITE_ORIGIN}/"
    assert page.title() == "漫画ひろば | まんがひろば | Manga Hiroba | 生漫画ひろば"
    blocks = page.locator("script[type='application/ld+json']")
    assert blocks.count() == 1
    assert json.loads(blocks.text_content())["@type"] == "WebSite"


def test_other_hosts_are_marked_noindex_and_load_no_analytics(base_url: str, page: Page) -> None:
    raw = with_head_tags(_raw(base_url + "/").text)
    assert '<meta name="robots" content="noindex, nofollow"' in raw
    assert "googletagmanager" not in raw
    requested: list[str] = []
    page.route(GTAG_PATTERN, lambda route: (requested.append(route.request.url), route.fulfill(body="")))
    page.goto(base_url + "/")
    wait_for_hydration(page)
    page.get_by_role("link", name="ジャンルから探す").click()
    page.wait_for_url("**/genres")
    assert page.locator("meta[name=robots]").get_attribute("content") == "noindex, nofollow"
    assert page.evaluate("typeof window.gtag") == "undefined"
    assert page.locator("script[src*='googletagmanager']").count() == 0
    assert requested == []


def test_production_host_is_indexed_and_reports_a_page_view_per_route_change(production_url: str, page: Page) -> None:
    raw = with_head_tags(
        httpx.get(production_url.replace("manga.test", "127.0.0.1") + "/", headers={"Host": production_url.split("//")[1]}).text
    )
    assert '<meta name="robots" content="index, follow"' in raw
    assert f"gtag/js?id={GA_ID}" in raw
    requested: list[str] = []
    page.route(GTAG_PATTERN, lambda route: (requested.append(route.request.url), route.fulfill(body="", content_type="text/javascript")))
    page.goto(production_url + "/")
    wait_for_hydration(page)
    page_views = "() => window.dataLayer.filter(a => a[0] === 'event' && a[1] === 'page_view').map(a => a[2].page_path)"
    page.wait_for_function(f"() => ({page_views})().length === 1")
    page.get_by_role("link", name="ジャンルから探す").click()
    page.wait_for_url("**/genres")
    page.wait_for_function(f"() => ({page_views})().length === 2")
    page.locator("footer").get_by_role("link", name="トップ").click()
    page.wait_for_url(production_url + "/")
    page.wait_for_function(f"() => ({page_views})().length === 3")
    assert page.evaluate(page_views) == ["/", "/genres", "/"]
    assert page.locator("meta[name=robots]").get_attribute("content") == "index, follow"
    assert len(requested) == 1 and f"id={GA_ID}" in requested[0]


def test_unknown_paths_get_a_japanese_not_found_page_with_status_404(base_url: str, page: Page) -> None:
    for path in ("/no-such-page", "/manga/no-such-title", "/nope-ch-1", "/a/b/c", "/404"):
        response = _raw(base_url + path)
        assert response.status_code == 404, path
        assert "ページが見つかりません" in response.text
        assert '<meta name="robots" content="noindex, nofollow"' in with_head_tags(response.text)
    response = page.goto(base_url + "/no-such-page")
    assert response is not None and response.status == 404
    expect(page.get_by_text("ページが見つかりません").first).to_be_visible()
    expect(page.get_by_role("link", name="トップページへ戻る")).to_be_visible()


def test_manifest_and_icons_make_the_site_installable(base_url: str, page: Page) -> None:
    manifest = _raw(base_url + "/manifest.json")
    assert manifest.status_code == 200
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    document = manifest.json()
    assert document["name"] == "漫画ひろば"
    assert document["display"] == "standalone"
    assert document["theme_color"] == "#f8413b"
    assert any(icon["purpose"] == "maskable" for icon in document["icons"])
    for icon in document["icons"]:
        fetched = _raw(base_url + icon["src"])
        assert fetched.status_code == 200, icon["src"]
        assert fetched.headers["content-type"] == icon["type"]
    page.goto(base_url + "/")
    assert page.locator("link[rel=manifest]").get_attribute("href") == "/manifest.json"
    assert page.locator("meta[name=theme-color]").get_attribute("content") == "#f8413b"
    assert _raw(base_url + page.locator("link[rel=apple-touch-icon]").get_attribute("href")).status_code == 200


def test_the_site_styles_are_present_before_any_javascript_runs(browser, base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(base_url + "/no-such-page")
        # Without JavaScript the not-found panel is styled by site.css: its
        # heading centred, at its size.
        title = page.locator("main h1.not-found-title")
        expect(title).to_be_visible()
        assert title.evaluate("e => getComputedStyle(e).textAlign") == "center"
        assert title.evaluate("e => getComputedStyle(e).fontSize") == "22px"
        # The page's search box is the site's own, styled by site.css.
        box = page.locator("main .header-search-input")
        assert box.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
        assert box.evaluate("e => getComputedStyle(e).borderTopWidth") == "1px"
        font = page.locator("body").evaluate("e => getComputedStyle(e).fontFamily")
        assert "Noto Sans JP" in font or "Hiragino" in font
    finally:
        context.close()


def test_the_back_control_follows_the_navigation_stack(base_url: str, page: Page) -> None:
    page.goto(base_url + "/")
    wait_for_hydration(page)
    page.get_by_role("link", name="ジャンルから探す").click()
    page.wait_for_url("**/genres")
    page.locator("footer").get_by_role("link", name="検索").click()
    page.wait_for_url("**/search")
    page.get_by_role("link", name="戻る", exact=True).click()
    page.wait_for_url("**/genres")
    page.get_by_role("link", name="戻る", exact=True).click()
    page.wait_for_url(base_url + "/")


def test_the_back_control_falls_back_to_the_home_page(base_url: str, page: Page) -> None:
    page.goto(base_url + "/no-such-page")
    page.get_by_role("link", name="戻る", exact=True).click()
    page.wait_for_url(base_url + "/")


def test_notifications_stack_up_to_the_configured_maximum_and_close_themselves(base_url: str, page: Page) -> None:
    page.goto(base_url + "/")
    wait_for_hydration(page)
    search_button = page.locator("header").get_by_role("button", name="検索")
    for _ in range(5):
        search_button.click()
    notices = page.locator(".ant-notification-notice")
    expect(notices.first).to_contain_text("検索語を入力してください")
    # NOTIFICATION_MAX_COUNT defaults to 3: five requests, three shown.
    expect(notices).to_have_count(3)
    # They stay long enough to read (4.5 s), then close by themselves.
    page.wait_for_timeout(3000)
    assert notices.count() >= 1
    expect(notices).to_have_count(0, timeout=10_000)


def _first_chapter_url(base_url: str) -> str:
    """A real chapter of the imported demo library, found through the public lists."""
    item = httpx.get(base_url + "/mangas_1.json").json()["list"][0]
    return f"/{item['slug']}-ch-{item['latest_chapter']}"


def test_a_chapter_path_uses_the_reader_layout_without_site_chrome(base_url: str, page: Page) -> None:
    path = _first_chapter_url(base_url)
    assert _raw(base_url + path).status_code == 200
    open_chapter(page, base_url + path)
    expect(page.locator("[data-layout=reader]")).to_be_visible()
    # A chapter opens with the menu closed (reader branch); Esc opens it, as a tap in the middle does.
    show_menu(page)
    expect(page.locator(".reader-bar").get_by_role("link", name="戻る", exact=True)).to_be_visible()
    expect(page.locator("header.site-header")).to_have_count(0)
    expect(page.locator("footer.site-footer")).to_have_count(0)


def test_an_unknown_chapter_of_a_known_title_is_not_found(base_url: str, page: Page) -> None:
    chapter = _first_chapter_url(base_url)
    slug = chapter.split("-ch-")[0]
    for path in (f"{slug}-ch-9999", f"{chapter}-wrong-chapter-slug", f"{chapter}x", f"{slug}-ch-"):
        assert _raw(base_url + path).status_code == 404, path
    response = page.goto(base_url + f"{slug}-ch-9999")
    assert response is not None and response.status == 404
    expect(page.get_by_text("ページが見つかりません").first).to_be_visible()
    expect(page.locator("[data-layout=reader]")).to_have_count(0)


def _page_paths(base_url: str) -> list[str]:
    first = httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"][0]
    return ["/", "/genres", "/search?q=%E3%81%BB%E3%81%97", f"/manga/{first['slug']}",
            f"/{first['slug']}-ch-{first['latest_chapter']}", "/library", "/notifications", "/no-such-page"]


def test_every_kind_of_page_hydrates_without_errors_on_every_host(base_url: str, production_url: str, page: Page) -> None:
    # A head the server wrote that React did not expect fails hydration
    # (React #418): React then throws the server's markup away and renders
    # again, so a visitor sees the page flash and the work done twice.
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    for origin in (base_url, production_url):
        for path in _page_paths(base_url):
            page.goto(origin + path)
            wait_for_hydration(page)
            page.wait_for_timeout(300)
    assert errors == []
