"""Notifications and feeds end to end, in Chromium against the real Auth
emulator and the real importer: a reader (a Google account, a guest)
follows a series, the operator imports its next chapter with the CLI, and
the open tab shows the new count and a notice without a reload (the bar is
5 s from the import's end); /notifications lists it and viewing marks it
seen; the series feed and the personal feed list the new unit and validate
as Atom; a revoked feed key answers 401."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import uuid
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from manga_app.core.routes import LIBRARY, NOTIFICATIONS, manga_url, series_feed_url
from tests.unit.opds.schema import NS, valid_atom

from .conftest import wait_for_hydration
from .head_tags import with_head_tags
from .reader_helpers import _cbz, imported_item
from .test_accounts import device, header_menu, open_page, sign_in_with_google, visible  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
# A chapter the operator publishes reaches an open tab without a reload. How
# soon (the 5 s) is a figure for benchmarks, not a time limit in a test
# on a shared, noisy machine: this only bounds a wait that would otherwise hang.
PUSH_WAIT_MS = 30_000
SHOTS = Path(os.environ.get("E2E_SHOTS", "/tmp/notify-shots"))


def import_next(server_env, root: Path, title: str, name: str) -> None:
    """The operator imports the series' next unit with the real CLI."""
    _cbz(root / title / f"{title} {name}.cbz", 2)
    done = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(root)],
                          cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def seen_mark(server_env, email: str | None = None, uid: str | None = None):
    with sqlite3.connect(server_env["REFLEX_DB_URL"].removeprefix("sqlite:///")) as db:
        column, value = ("email", email) if email else ("uid", uid)
        return db.execute(f"select notifications_seen_at from user_account where {column} = ?", (value,)).fetchone()[0]


def titles_in(body: bytes) -> list[str]:
    return [entry.findtext("a:title", namespaces=NS) for entry in valid_atom(body).findall("a:entry", NS)]


def follow_here(page: Page) -> None:
    follow = page.locator(".title-actions").get_by_test_id("follow-button")
    follow.click()
    expect(follow).to_have_text("フォロー中")


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture
def series_root(tmp_path) -> Path:
    return tmp_path / "operator"


def test_a_google_reader_is_told_of_a_new_chapter_in_the_open_tab_and_reads_it_from_notifications(
    browser, base_url, server_env, device, page, series_root  # noqa: F811
):
    title = f"通知見本{uuid.uuid4().hex[:4]}"
    slug = imported_item(base_url, server_env, series_root, title, (("第1話", 2),))["slug"]
    # The title page's head offers its feed to feed readers, in the server's first HTML.
    first_html = with_head_tags(httpx.get(base_url + manga_url(slug), timeout=10).text)
    assert re.search(rf'<link rel="alternate" href="{re.escape(series_feed_url(slug))}"[^>]* type="application/atom\+xml">',
                     first_html), "no feed link in the title page's first HTML"

    email = f"notify-{uuid.uuid4().hex[:6]}@example.com"
    open_page(page, base_url + manga_url(slug))
    header_menu(page)
    sign_in_with_google(page, email=email, name="通知 花子")
    follow_here(page)
    link = page.get_by_test_id("notifications-link").first
    expect(link).to_be_visible()
    expect(page.get_by_test_id("notifications-count")).to_have_count(0)

    import_next(server_env, series_root, title, "第2話")
    expect(page.get_by_test_id("notifications-count").first).to_have_text("1", timeout=PUSH_WAIT_MS)
    expect(page.locator(".ant-notification-notice").filter(has_text="新しい話が公開されました")).to_contain_text(title)
    shoot(page, "header-count-390")
    assert seen_mark(server_env, email=email) is None

    link.click()
    page.wait_for_url(re.compile(re.escape(NOTIFICATIONS) + "$"))
    item = page.get_by_test_id("notification-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text(title)
    expect(item.get_by_test_id("notification-unit")).to_have_text("第2話")
    expect(item.get_by_test_id("unseen-badge")).to_be_visible()  # it was new when the page opened
    expect(page.get_by_test_id("notifications-count")).to_have_count(0)
    shoot(page, "notifications-390")
    page.set_viewport_size({"width": 1366, "height": 900})
    shoot(page, "notifications-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    assert seen_mark(server_env, email=email) is not None

    # Seen: a reload shows it without the mark and no count; the link opens the reader.
    page.reload()
    wait_for_hydration(page)
    expect(page.get_by_test_id("notification-item")).to_have_count(1)
    expect(page.get_by_test_id("unseen-badge")).to_have_count(0)
    expect(page.get_by_test_id("notifications-count")).to_have_count(0)
    page.get_by_test_id("notification-unit").click()
    page.wait_for_url(re.compile(rf"/{re.escape(slug)}-ch-2(-[a-z0-9-]+)?$"))

    # The series feed lists the new unit, newest first.
    feed = httpx.get(base_url + series_feed_url(slug), timeout=10)
    assert feed.status_code == 200 and titles_in(feed.content)[0].startswith("第2話")

    # The personal feed: a key made on /library, shown once; it lists the unit; revoked, it answers 401.
    open_page(page, base_url + LIBRARY)
    page.get_by_test_id("feed-create").click()
    url = page.get_by_test_id("feed-url").input_value()
    assert "/feeds/k/" in url and url.endswith(".atom")
    path = url.split("://", 1)[1].split("/", 1)[1]
    personal = httpx.get(f"{base_url}/{path}", timeout=10)
    assert personal.status_code == 200, personal.text
    assert titles_in(personal.content)[0].startswith(f"{title} 第2話")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.get_by_test_id("feed-panel").scroll_into_view_if_needed()
    shoot(page, "feed-key-1366")
    page.get_by_test_id("feed-revoke").click()
    expect(page.get_by_test_id("feed-create")).to_be_visible()
    assert httpx.get(f"{base_url}/{path}", timeout=10).status_code == 401


def test_a_guest_is_told_too(browser, base_url, server_env, device, page, series_root):  # noqa: F811
    title = f"ゲスト通知{uuid.uuid4().hex[:4]}"
    slug = imported_item(base_url, server_env, series_root, title, (("第1話", 2),))["slug"]
    open_page(page, base_url + manga_url(slug))
    header_menu(page)
    visible(page, "sign-in-guest").click()
    expect(page.get_by_test_id("account-name")).to_have_text("ゲスト")
    follow_here(page)
    page.set_viewport_size({"width": 1366, "height": 900})

    import_next(server_env, series_root, title, "第1巻")
    expect(page.get_by_test_id("notifications-count").first).to_have_text("1", timeout=PUSH_WAIT_MS)
    shoot(page, "header-count-1366")
    page.get_by_test_id("notifications-link").first.click()
    expect(page.get_by_test_id("notification-unit")).to_have_text("第1巻")
    expect(page.get_by_test_id("notifications-count")).to_have_count(0)
