"""The title page's 関連作品 (same author first, then shared tags and
genres) and its follower count (issue 32)."""

from __future__ import annotations

import re
import uuid

import httpx
from playwright.sync_api import Page, expect

from manga_app.core import routes
from tests.e2e.conftest import wait_for_hydration
from tests.e2e.reader_helpers import db


def _items(base_url: str) -> list[dict]:
    return httpx.get(base_url + "/mangas_1.json").json()["list"]


def _names(item: dict) -> set[str]:
    return {*item["authors"], *item.get("artists", [])}


def test_related_series_come_same_author_first_then_shared_tags_and_genres(base_url: str, page: Page) -> None:
    items = _items(base_url)
    # A series whose author has another one here, when the demo has one.
    item = max(items, key=lambda one: sum(bool(_names(one) & _names(other)) for other in items))
    same_author = {other["title"] for other in items if other is not item and _names(other) & _names(item)}
    sharing = {other["title"] for other in items if other is not item
               and (set(other["genres"]) & set(item["genres"]) or set(other.get("tags", [])) & set(item.get("tags", [])))}
    page.goto(base_url + routes.manga_url(item["slug"]))
    wait_for_hydration(page)
    related = page.get_by_role("list", name="関連作品")
    expect(related.locator(".card").first).to_be_visible()
    shown = related.locator(".card-title").all_inner_texts()
    assert item["title"] not in shown and set(shown) <= same_author | sharing
    assert set(shown[: len(same_author)]) == same_author
    # In the server's first HTML too.
    assert 'aria-label="関連作品"' in httpx.get(base_url + routes.manga_url(item["slug"])).text


def test_the_title_page_counts_the_accounts_following_the_series(base_url: str, server_env, page: Page) -> None:
    item = _items(base_url)[-1]
    page.goto(base_url + routes.manga_url(item["slug"]))
    wait_for_hydration(page)
    followers = page.locator(".title-facts .title-followers")
    expect(followers).to_have_text(re.compile(r"^\d+人$"))
    # Accounts of other modules (run before this one in the same process) may follow it already.
    before = int(followers.inner_text().removesuffix("人"))
    with db(server_env) as connection:  # two accounts follow it (as the follow button records for an account)
        for _ in range(2):
            uid = "related-" + uuid.uuid4().hex
            connection.execute("insert into user_account (uid, email, name, avatar, is_anonymous, created_at, updated_at)"
                               " values (?, '', '', '', 0, '2026-01-01 00:00:00', '2026-01-01 00:00:00')", (uid,))
            connection.execute("insert into follow (uid, series_slug, created_at) values (?, ?, '2026-01-01 00:00:00')",
                               (uid, item["slug"]))
    page.reload()
    wait_for_hydration(page)
    expect(followers).to_have_text(f"{before + 2}人")
