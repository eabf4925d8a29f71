"""Reading lists end to end, in Chromium against the real Auth emulator and
the real importer: a guest's follow is 読んでる, a status changed on the title
page and on /library moves the series between the tabs, a chapter the
operator imports shows as unread and 更新あり until the series is opened, the
library survives linking the guest to Google, and reading the last chapter of
a 完結 series moves it to 読了 with an undo. Screenshots at 390x844 and
1366x900 go to the test's folder (E2E_SCREENSHOTS, when set, keeps them)."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import zipfile
import time
import uuid
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import Page, expect

from manga_app.core.routes import LIBRARY, manga_url
from tests.e2e.conftest import wait_for_hydration
from tests.e2e.held_sign_in import HeldSignIn
from tests.e2e.reader_helpers import ROOT, open_chapter
from tests.e2e.test_accounts import device, header_menu, open_page, sign_in_with_google, visible  # noqa: F401

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1366, "height": 900}


def _cbz(path: Path) -> None:
    """Two pages of their own: the importer knows a unit by its content."""
    with zipfile.ZipFile(path, "w") as archive:
        for index in range(2):
            out = io.BytesIO()
            colour = tuple(hashlib.sha256(f"{path.name} {index}".encode()).digest()[:3])
            Image.new("RGB", (600, 900), colour).save(out, "PNG")
            archive.writestr(f"{index + 1:03}.png", out.getvalue())


def _import(server_env, root: Path) -> None:
    """The operator's import of `root`, through the real CLI."""
    done = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(root)],
                          cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def _published(base_url: str, title: str, latest: float) -> dict:
    """The list item of `title` once the site publishes its unit `latest`."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        items = httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"]
        found = next((item for item in items if item["title"] == title and item["latest_chapter"] >= latest), None)
        if found:
            return found
        time.sleep(0.5)
    raise AssertionError(f"{title} {latest} never reached the published catalogue")


def _shoot(page: Page, folder: Path, name: str) -> None:
    for size, label in ((PHONE, "390x844"), (DESKTOP, "1366x900")):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)  # layout settles after the resize
        page.screenshot(path=str(folder / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(PHONE)


def _card(page: Page, title: str):
    return page.get_by_test_id("library-item").filter(has_text=title)


def _reached_beside_notice(page: Page, button) -> None:
    """Waits until a tap at `button`'s centre reaches it while a notice is on the screen (a notice
    over it stays as long as the pointer rests on it: antd pauses it, and this times out)."""
    page.wait_for_function(
        """button => { const box = button.getBoundingClientRect();
                       const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
                       return document.querySelector('.ant-notification-notice') !== null && button.contains(hit); }""",
        arg=button.element_handle(), timeout=10_000,
    )


def _tab(page: Page, label: str):
    return page.locator("nav[aria-label='読書状態'] a", has_text=label)


def test_statuses_unread_and_updates_for_a_guest_linked_to_google(base_url, server_env, device, page, tmp_path):
    shots = Path(os.environ.get("E2E_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(PHONE)
    # Kana, not digits: a number in a name reads as a unit number.
    tag = "".join("あいうえおかきくけこさしすせそた"[int(c, 16)] for c in uuid.uuid4().hex[:4])
    ongoing, complete = f"続きもの{tag}", f"完結もの{tag}"
    comics = tmp_path / "comics"
    (comics / ongoing).mkdir(parents=True)
    (comics / f"{complete} (完)").mkdir(parents=True)
    for number in (1, 2):
        _cbz(comics / ongoing / f"{ongoing} 第{number}話.cbz")
        _cbz(comics / f"{complete} (完)" / f"{complete} 第{number}話.cbz")
    _import(server_env, comics)
    first, last = _published(base_url, ongoing, 2), _published(base_url, complete, 2)

    # A guest follows: the series is 読んでる; the title page changes it to 読みたい.
    open_page(page, base_url + manga_url(first["slug"]))
    header_menu(page)
    visible(page, "sign-in-guest").click()
    expect(page.get_by_test_id("account-name")).to_have_text("ゲスト")
    page.locator(".title-actions").get_by_test_id("follow-button").click()
    picker = page.locator(".title-status").get_by_test_id("status-picker")
    expect(picker).to_have_value("reading")
    picker.select_option("want")
    expect(page.locator(".ant-notification-notice").filter(has_text="「読みたい」にしました")).to_be_visible()
    expect(picker).to_have_value("want")

    # /library opens on 読んでる; the series waits under 読みたい, every chapter unread.
    open_page(page, base_url + LIBRARY)
    expect(_tab(page, "読みたい 1")).to_be_visible()
    expect(_tab(page, "読んでる 0")).to_have_attribute("aria-current", "true")
    _tab(page, "読みたい").click()
    expect(_card(page, ongoing).get_by_test_id("unread-badge")).to_have_text("未読2話")
    expect(_card(page, ongoing).get_by_test_id("fresh-badge")).to_have_count(0)
    # Changed on the library: it leaves this tab for 読んでる.
    _card(page, ongoing).get_by_test_id("status-picker").select_option("reading")
    expect(_card(page, ongoing)).to_have_count(0)
    expect(_tab(page, "読んでる 1")).to_be_visible()

    # The operator imports chapter 3: unread and 更新あり on the next visit.
    _cbz(comics / ongoing / f"{ongoing} 第3話.cbz")
    _import(server_env, comics)
    _published(base_url, ongoing, 3)
    open_page(page, base_url + LIBRARY + "?status=reading")
    card = _card(page, ongoing)
    expect(card.get_by_test_id("unread-badge")).to_have_text("未読3話")
    expect(card.get_by_test_id("fresh-badge")).to_have_text("更新あり")
    _shoot(page, shots, "library-updated")

    # Linking the guest to Google keeps the statuses.
    header_menu(page)
    sign_in_with_google(page, email=f"lists-{uuid.uuid4().hex[:6]}@example.com", name="リスト 太郎")
    expect(page.get_by_test_id("account-bar-name")).to_have_text("リスト 太郎")
    open_page(page, base_url + LIBRARY + "?status=reading&sort=title")
    expect(_card(page, ongoing).get_by_test_id("status-picker")).to_have_value("reading")
    expect(_card(page, ongoing).get_by_test_id("fresh-badge")).to_have_text("更新あり")
    # Opening the series sees the update.
    _card(page, ongoing).locator("a.shelf-title").click()
    expect(page.locator("h1.title-name")).to_have_text(ongoing)
    expect(page.locator(".chapter-row")).to_have_count(3)
    expect(page.locator(".title-status").get_by_test_id("status-picker")).to_have_value("reading")
    page.go_back()
    expect(_card(page, ongoing).get_by_test_id("unread-badge")).to_have_text("未読3話")
    expect(_card(page, ongoing).get_by_test_id("fresh-badge")).to_have_count(0)

    # The last chapter of a 完結 series read to its end: 読了, said with an undo.
    open_page(page, base_url + manga_url(last["slug"]))
    page.locator(".title-actions").get_by_test_id("follow-button").click()
    expect(page.locator(".title-status").get_by_test_id("status-picker")).to_have_value("reading")
    open_chapter(page, base_url + f"/{last['slug']}-ch-2")
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    banner = page.get_by_test_id("finished-banner")
    expect(banner).to_contain_text(f"「{complete}」は完結済みのため、読了にしました")
    # A notice given meanwhile (Python's notify, through the page's command ref) shows above the banner.
    page.evaluate("() => { window.__reflex['$/utils/state'].refs['ref_manga_command'].current.value ="
                  " ['notify', 'info', '読み込み中です', '少し待ってからもう一度お試しください。']; }")
    _reached_beside_notice(page, page.get_by_test_id("finished-undo"))
    _shoot(page, shots, "reader-finished")
    expect(page.locator(".ant-notification-notice")).to_have_count(0, timeout=15_000)  # not taken for a later one
    open_page(page, base_url + LIBRARY + "?status=finished")
    expect(_card(page, complete)).to_be_visible()
    expect(_tab(page, "読了 1")).to_have_attribute("aria-current", "true")
    _shoot(page, shots, "library-finished")
    # Back on the reader, the page loads again: 元に戻す tapped before the page knows
    # who is signed in is kept and done once it does; nothing asks to try again.
    sign_in = HeldSignIn(page)
    page.go_back()
    done = page.locator(".ant-notification-notice").filter(has_text="「読んでる」に戻しました")
    wait_for_hydration(page)
    page.get_by_test_id("finished-undo").click()
    page.wait_for_timeout(1000)
    expect(done).to_have_count(0)
    sign_in.release()
    expect(done).to_be_visible()
    expect(page.get_by_test_id("finished-banner")).to_have_count(0)
    expect(page.locator(".ant-notification-notice").filter(has_text="読み込み中です")).to_have_count(0)
    open_page(page, base_url + LIBRARY)
    expect(_tab(page, "読了 0")).to_be_visible()
    expect(_card(page, complete).get_by_test_id("status-picker")).to_have_value("reading")
    open_page(page, base_url + manga_url(first["slug"]))
    _shoot(page, shots, "title-status")
