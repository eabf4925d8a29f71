"""The title page: head for crawlers, chapters newest first with read marks,
read/continue links, follow (in the browser for visitors who are not signed
in; accounts are test_accounts.py) and share; 404s; the sitemap."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import httpx
from playwright.sync_api import Page, expect

from manga_app.core import routes
from tests.e2e.conftest import SITE_ORIGIN, wait_for_hydration
from tests.e2e.head_tags import with_head_tags
from tests.e2e.reader_helpers import manifest

SLUG = "yaoya-no-yuusha"  # the demo series with the most chapters
TITLE = "八百屋の勇者"
RELATIVE_TIME = re.compile(r"^(たった今|\d+(分|時間|日|週間|ヶ月)前|先月|昨年|1年前|2年以上前)$")


def chapter_numbers(page: Page) -> list[float]:
    return [float(n) for n in page.locator(".chapter-row").evaluate_all("rows => rows.map(r => r.dataset.number)")]


def test_first_response_carries_the_title_head_and_after_hydration_one_of_each(base_url: str, page: Page) -> None:
    path = routes.manga_url(SLUG)
    html = with_head_tags(httpx.get(base_url + path).text)
    assert html.count("<title>") == 1 and TITLE in html.split("<title>")[1].split("</title>")[0]
    assert f'<link rel="canonical" href="{SITE_ORIGIN}{path}"' in html
    assert re.search(r'<meta name="description" content="[^"]+"', html)
    assert re.search(rf'<meta property="og:title" content="[^"]*{TITLE}', html)
    assert f'<meta property="og:url" content="{SITE_ORIGIN}{path}"' in html
    blocks = re.findall(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S)
    assert len(blocks) == 1 and "ComicSeries" in blocks[0]
    page.goto(base_url + path)
    wait_for_hydration(page)
    for selector in ("title", "meta[name=description]", "link[rel=canonical]", "meta[property='og:url']", "script[type='application/ld+json']"):
        assert page.locator(selector).count() == 1, selector
    assert TITLE in page.title()


def test_title_page_shows_the_series_and_its_chapters_newest_first(base_url: str, page: Page) -> None:
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    expect(page.locator("h1")).to_have_text(TITLE)
    cover = page.locator("img.title-cover")
    assert (cover.get_attribute("width"), cover.get_attribute("height")) == ("160", "228")
    expect(page.locator(".title-aliases")).to_contain_text("Yaoya no Yuusha")
    expect(page.locator(".title-facts")).to_contain_text("連載中")
    expect(page.locator(".title-facts")).to_contain_text("閲覧数")
    expect(page.locator(".title-summary")).not_to_be_empty()
    # ComicInfo Tags show as the title's tags, apart from its genres.
    item = next(i for i in httpx.get(base_url + "/mangas_1.json").json()["list"] if i["slug"] == SLUG)
    assert item["tags"] and not set(item["tags"]) & set(item["genres"])
    expect(page.locator(".title-tags li")).to_have_text([f"#{tag}" for tag in item["tags"]])
    numbers = chapter_numbers(page)
    assert len(numbers) > 5 and numbers == sorted(numbers, reverse=True)
    for text in page.locator(".chapter-time").all_inner_texts():
        assert RELATIVE_TIME.match(text), text
    expect(page.locator(".chapter-number").first).to_have_text(re.compile(r"^第\d+(\.\d+)?話$"))
    # 最初から読む opens the first chapter; there is no 続きを読む without history.
    first = page.get_by_role("link", name="最初から読む")
    assert re.fullmatch(rf"/{SLUG}-ch-1(-[a-z0-9-]+)?", first.get_attribute("href"))
    expect(page.get_by_role("link", name=re.compile("続きを読む"))).to_have_count(0)
    expect(page.locator(".read-mark")).to_have_count(0)
    genre = page.locator(".title-genres a").first
    expect(genre).to_have_attribute("href", re.compile(r"^/genre/"))
    genre.click()
    page.wait_for_url(re.compile(r"/genre/"))
    expect(page.locator("main .card-grid .card-title", has_text=TITLE)).to_be_visible()


def test_read_marks_and_continue_come_from_a_reading_history_kept_before_marks_were_honest(
    base_url: str, server_env, page: Page
) -> None:
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    rows = page.locator(".chapter-row")
    last_read = rows.nth(rows.count() - 3)  # the third chapter
    number = last_read.get_attribute("data-number")
    read_href = last_read.locator("a").get_attribute("href")
    total = len(manifest(server_env, SLUG, number))
    # The old format: every chapter opened was in "read", the last one left at page 3.
    history = [{
        "slug": SLUG, "title": TITLE, "cover": "", "chapter": number, "chapter_title": "", "page": 2, "offset": 0.0,
        "read_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "read": ["1", "2", number],
    }]
    page.evaluate("h => localStorage.setItem('manga_reading_history', h)", json.dumps(history, ensure_ascii=False))
    page.reload()
    wait_for_hydration(page)
    # The chapters left for later ones keep their marks; the last one shows where it was left.
    expect(page.locator(".read-mark")).to_have_count(2)
    marked = page.locator(".chapter-row:has(.read-mark)").evaluate_all("rows => rows.map(r => r.dataset.number)")
    assert sorted(marked) == ["1", "2"]
    expect(page.locator(f".chapter-row[data-number='{number}'] .read-progress")).to_have_text(f"3/{total}")
    expect(page.locator(".chapter-row[data-number='4'] .read-mark")).to_have_count(0)
    continue_link = page.get_by_role("link", name=re.compile("続きを読む"))
    expect(continue_link).to_have_text(f"続きを読む 第{number}話・3ページ目")
    expect(continue_link).to_have_attribute("href", read_href)


def test_once_a_visitor_has_started_continue_is_the_first_and_primary_action_on_one_line(
    base_url: str, page: Page
) -> None:
    """ジャンプ+ and ピッコマ put 続きを読む first for a series you are reading;
    starting over is the exception, so it becomes the secondary action."""
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    first = page.locator(".read-first")
    expect(first).to_have_class(re.compile(r"\bbutton-primary\b"))  # not started: reading starts here
    history = [{
        "slug": SLUG, "title": TITLE, "cover": "", "chapter": "10.5", "chapter_title": "", "page": 2, "offset": 0.0,
        "read_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"), "read": [], "opened": [["10.5", 2]],
    }]
    page.evaluate("h => localStorage.setItem('manga_reading_history', h)", json.dumps(history, ensure_ascii=False))
    page.reload()
    wait_for_hydration(page)
    resume = page.locator(".read-continue")
    expect(resume).to_have_text("続きを読む 第10.5話・3ページ目")
    expect(resume).to_have_class(re.compile(r"\bbutton-primary\b"))
    expect(first).to_have_class(re.compile(r"\bbutton-secondary\b"))
    resume_box, first_box = resume.bounding_box(), first.bounding_box()
    assert resume_box["y"] + resume_box["height"] <= first_box["y"], "続きを読む comes before 最初から読む"
    # One line at 390 px: the label's lines, counted by the browser.
    lines = resume.evaluate(
        "a => { const r = document.createRange(); r.selectNodeContents(a);"
        " return new Set([...r.getClientRects()].map(rect => Math.round(rect.top))).size }"
    )
    assert lines == 1, f"続きを読む wraps onto {lines} lines at 390 px"


def test_the_facts_labels_stay_on_one_line_on_a_phone(base_url: str, page: Page) -> None:
    """作者・状態・閲覧数・フォロワー・更新: a label broken inside the word
    (「フォロワ / ー」) reads as two words."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    labels = page.locator(".title-facts dt")
    expect(labels).to_have_count(5)
    lines = labels.evaluate_all(
        "dts => dts.map(dt => { const r = document.createRange(); r.selectNodeContents(dt);"
        " return [dt.textContent, new Set([...r.getClientRects()].map(rect => Math.round(rect.top))).size] })"
    )
    assert all(count == 1 for _, count in lines), lines


def test_a_visitor_who_is_not_signed_in_follows_in_the_browser(base_url: str, page: Page) -> None:
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    follow = page.locator(".title-actions").get_by_test_id("follow-button")
    expect(page.get_by_test_id("sign-in-open")).to_be_visible()  # nobody is signed in
    expect(follow).to_have_text("フォロー")
    follow.click()
    expect(follow).to_have_text("フォロー中")
    expect(follow).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".ant-notification-notice").filter(has_text="フォローしました")).to_be_visible()
    page.reload()
    wait_for_hydration(page)
    expect(follow).to_have_text("フォロー中")
    page.goto(base_url + routes.LIBRARY)
    wait_for_hydration(page)
    expect(page.get_by_test_id("library-item")).to_contain_text(TITLE)
    page.get_by_test_id("library-item").get_by_test_id("follow-button").click()
    expect(page.get_by_test_id("library-item")).to_have_count(0)
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    expect(follow).to_have_text("フォロー")


def test_share_copies_the_link(base_url: str, page: Page) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script("delete Navigator.prototype.share; delete navigator.share;")
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    page.get_by_role("button", name="共有").click()
    expect(page.locator(".ant-notification-notice").filter(has_text="リンクをコピーしました")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == base_url + routes.manga_url(SLUG)


def test_share_uses_the_web_share_api_when_there_is_one(base_url: str, page: Page) -> None:
    page.add_init_script("window.__shared = null; navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };")
    page.goto(base_url + routes.manga_url(SLUG))
    wait_for_hydration(page)
    page.get_by_role("button", name="共有").click()
    page.wait_for_function("() => window.__shared !== null")
    assert page.evaluate("window.__shared.url") == base_url + routes.manga_url(SLUG)


def test_unknown_title_is_a_404_with_the_japanese_not_found_page(base_url: str, page: Page) -> None:
    assert httpx.get(base_url + routes.manga_url("no-such-title")).status_code == 404
    page.goto(base_url + routes.manga_url("no-such-title"))
    expect(page.get_by_text("ページが見つかりません").first).to_be_visible()
    assert httpx.get(base_url + "/manga/" + "%00%ED%A0%80").status_code == 404


def test_sitemap_lists_title_and_chapter_pages_with_last_modified(base_url: str) -> None:
    response = httpx.get(base_url + "/sitemap.xml")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/xml")
    xml = response.text
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    assert f"<loc>{SITE_ORIGIN}{routes.manga_url(SLUG)}</loc><lastmod>" in xml
    assert re.search(rf"<loc>{re.escape(SITE_ORIGIN)}/{SLUG}-ch-1(-[a-z0-9-]+)?</loc><lastmod>\d{{4}}-\d\d-\d\dT", xml)
    for item in httpx.get(base_url + "/mangas_1.json").json()["list"]:
        assert f"<loc>{SITE_ORIGIN}{routes.manga_url(item['slug'])}</loc>" in xml
    assert httpx.get(base_url + "/sitemap.xml?part=999").status_code == 404
    assert httpx.get(base_url + "/sitemap.xml?part=x").status_code == 404
