"""Rankings, the weekday calendar and card badges as a visitor sees them, in
a fresh browser, on the demo library (whose view history and schedules are
made so that each shows something; tests/unit/demo/test_view_days.py)."""

from __future__ import annotations

import json
import time
import re
from datetime import UTC, datetime

import httpx
import pytest
from playwright.sync_api import Page, expect

from manga_app.core import discovery, routes
from tests.e2e.conftest import SITE_ORIGIN, wait_for_hydration
from tests.e2e.head_tags import with_head_tags

PERIOD_HEADINGS = {"day": "日間ランキング", "week": "週間ランキング", "month": "月間ランキング", "all": "累計ランキング"}


def test_ranking_lists_series_by_readers_with_places_and_movement(base_url: str, page: Page) -> None:
    page.goto(base_url + routes.RANKING)
    wait_for_hydration(page)
    expect(page.locator("main h1")).to_have_text("日間ランキング")
    tabs = page.get_by_role("navigation", name="期間").locator("a")
    expect(tabs).to_have_text(["日間", "週間", "月間", "累計"])
    rows = page.locator("main .rank-row")
    expect(rows.first).to_be_visible()
    count = rows.count()
    assert count >= 3
    places = [text.strip() for text in rows.locator(".rank-number").all_text_contents()]
    assert places == [f"{n}位" for n in range(1, count + 1)]
    for period, heading in PERIOD_HEADINGS.items():
        tabs.filter(has_text=discovery.PERIOD_LABELS[period]).click()
        expect(page.locator("main h1")).to_have_text(heading)
        expect(page).to_have_url(base_url + routes.ranking_url("" if period == "day" else period))
        expect(rows.first).to_be_visible()
    moves = set()
    for period in discovery.PERIODS[:3]:
        page.goto(base_url + routes.ranking_url(period))
        expect(rows.first).to_be_visible()
        moves |= set(page.locator("main .rank-move").all_inner_texts())
    assert {"↑", "↓", "NEW"} <= {text.split("\n")[0] for text in moves}


def test_all_time_ranking_follows_the_published_view_totals(base_url: str, page: Page) -> None:
    items, number = [], 1
    while (response := httpx.get(f"{base_url}/mangas_{number}.json")).status_code == 200 and response.json()["list"]:
        items += response.json()["list"]
        number += 1
    expected = [item["title"] for item in sorted(items, key=lambda item: (-item["views"], item["slug"])) if item["views"]]
    # The board follows a new catalogue (another module's import) in the
    # background, serving the one it holds meanwhile: a later visit shows it.
    for _ in range(40):
        page.goto(base_url + routes.ranking_url("all"))
        expect(page.locator("main .rank-row").first).to_be_visible()
        # Text, not innerText: rows far down the list are not drawn until scrolled near (content-visibility).
        shown = page.locator("main .rank-title").all_text_contents()
        if shown == expected:
            break
        page.wait_for_timeout(500)
    assert shown == expected


def _item_list(html: str) -> dict:
    """The page's JSON-LD ItemList ({} when it has none)."""
    for found in re.findall(r'<script type="application/ld\+json"[^>]*>(.*?)</script>', html, re.S):
        ld = json.loads(found)
        for entry in ld if isinstance(ld, list) else ld.get("@graph", [ld]):
            if entry.get("@type") == "ItemList":
                return entry
    return {}


def test_ranking_of_one_genre_and_its_head(base_url: str, page: Page) -> None:
    # A genre with readers: that of the most read demo series (other modules
    # import series of new genres that nobody has read this week).
    items = httpx.get(base_url + "/mangas_1.json").json()["list"]
    genre = max(items, key=lambda item: (item["views"], item["slug"]))["genres"][0]
    path = routes.ranking_url("week", genre)
    # The board follows a new catalogue in the background: a later visit shows it.
    for _ in range(40):
        response = httpx.get(base_url + path)
        if response.status_code == 200 and _item_list(response.text).get("itemListElement"):
            break
        time.sleep(0.5)
    assert response.status_code == 200
    html = with_head_tags(response.text)
    assert f"<title>{genre}の漫画週間ランキング" in html
    assert f'<link rel="canonical" href="{SITE_ORIGIN}{path.replace("&", "&amp;")}"' in html
    item_list = _item_list(response.text)
    assert item_list["@type"] == "ItemList" and item_list["itemListElement"][0]["position"] == 1
    page.goto(base_url + path)
    wait_for_hydration(page)
    expect(page.locator("main h1")).to_have_text(f"{genre}の週間ランキング")
    expect(page.get_by_role("navigation", name="ジャンル").locator("a[aria-current=true]")).to_have_text(genre)
    first = item_list["itemListElement"][0]["name"]
    expect(page.locator("main .rank-title").first).to_have_text(first)


@pytest.mark.parametrize(
    ("path", "status", "heading"),
    [
        (routes.ranking_url("week", "存在しないジャンル"), 404, None),
        ("/ranking?period=yearly", 200, "日間ランキング"),
        ("/ranking?period=%00&page=-3", 200, "日間ランキング"),
        ("/ranking?page=999", 200, "日間ランキング"),
        ("/calendar?day=someday", 200, "TODAY"),
        ("/calendar?day=irregular&page=abc", 200, "不定期更新の漫画"),
    ],
)
def test_bad_queries_get_the_default_and_an_unknown_genre_is_a_404(base_url: str, page: Page, path, status, heading) -> None:
    response = httpx.get(base_url + path)
    assert response.status_code == status
    page.goto(base_url + path)
    wait_for_hydration(page)
    if heading is None:
        expect(page.get_by_text("ページが見つかりません").first).to_be_visible()
        return
    if heading == "TODAY":
        today = discovery.parse_day(None, now=datetime.now(UTC))
        heading = discovery.DAY_LABELS[today] + "曜日更新の漫画"
    expect(page.locator("main h1")).to_have_text(heading)


def test_calendar_opens_on_today_and_marks_todays_updates(base_url: str, page: Page) -> None:
    now = datetime.now(UTC)
    today = discovery.parse_day(None, now=now)
    response = httpx.get(base_url + routes.CALENDAR)
    assert response.status_code == 200
    assert f'<link rel="canonical" href="{SITE_ORIGIN}{routes.CALENDAR}"' in with_head_tags(response.text)
    page.goto(base_url + routes.CALENDAR)
    wait_for_hydration(page)
    expect(page.locator("main h1")).to_have_text(discovery.DAY_LABELS[today] + "曜日更新の漫画")
    tabs = page.get_by_role("navigation", name="曜日").locator("a")
    expect(tabs).to_have_count(8)
    expect(page.get_by_role("navigation", name="曜日").locator("a[aria-current=true]")).to_contain_text("(今日)")
    # The demo's just-published weekly series came out today: it is here, marked.
    expect(page.locator("main .card-grid .badge-today").first).to_have_text("本日更新")
    # Completed series are in no tab.
    completed = {item["title"] for item in httpx.get(base_url + "/mangas_1.json").json()["list"] if item["status"] == "completed"}
    seen = set()
    for day in discovery.DAY_LABELS:
        page.goto(base_url + routes.calendar_url(day))
        wait_for_hydration(page)
        expect(page.locator("main h1")).to_contain_text("更新の漫画")
        expect(page.locator("main .result-count")).to_contain_text("作品")
        seen |= set(page.locator("main .card-title").all_inner_texts())
    assert seen and not seen & completed


def test_cards_carry_completed_new_and_updated_badges(base_url: str, page: Page) -> None:
    page.goto(base_url + "/")
    wait_for_hydration(page)
    badges = page.locator("main .badge")
    expect(badges.first).to_be_visible()
    texts = set(badges.all_inner_texts())
    assert {"完結", "NEW", "更新"} <= texts
    card = page.locator("main .card", has=page.locator(".badge-completed")).first
    box, cover = card.bounding_box(), card.locator(".cover").bounding_box()
    badge = card.locator(".badge-completed").bounding_box()
    # Laid over the cover: the card is no taller for it.
    assert cover["y"] <= badge["y"] and badge["y"] + badge["height"] <= cover["y"] + cover["height"]
    assert box["height"] > 0
