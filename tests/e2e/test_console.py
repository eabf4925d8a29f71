"""The operator's console end to end: real Chromium, the real Auth emulator,
the real importer (the CLI, while the server runs). An operator signs in on
/admin, edits a series' reading and finds it by that reading on the site's
search, edits its title and summary and sees them on the title page, a
re-import of changed files leaves the locked fields alone, and the audit log
shows each change. A reader and a guest get the site's ordinary 404."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from manga_app.core.routes import ADMIN, ADMIN_AUDIT, admin_series_url, manga_url
from tests.unit.catalogue.builders import comicinfo_xml, distinct_pages, write_cbz

from .conftest import OPERATOR_EMAIL, wait_for_hydration
from .test_validators import _node_module
from .test_accounts import another_device, device, header_menu, sign_in_with_google, visible  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".cache" / "screenshots" / "console"  # ignored by git: for looking at, not for keeping
SERIES = "灯台守の港町"
NOT_FOUND = "ページが見つかりません"


def _write(folder: Path, *, summary: str, seed: int) -> Path:
    info = comicinfo_xml(Series=SERIES, Title="はじまり", Number="1", Summary=summary, Writer="港 ひかり")
    pages = {f"{i + 1}.png": data for i, data in enumerate(distinct_pages(3, seed=seed))}
    return write_cbz(folder / SERIES / "第1話.cbz", {**pages, "ComicInfo.xml": info.encode()})


def _import(server_env: dict, folder: Path) -> None:
    subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(folder)],
                   cwd=ROOT, env=server_env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def own_series(base_url, server_env, tmp_path_factory) -> tuple[str, Path]:
    """A series of this module's own (the demo's are other tests'): its slug and source folder."""
    folder = tmp_path_factory.mktemp("console-src")
    _write(folder, summary="ファイルのあらすじ", seed=31)
    _import(server_env, folder)
    slug = next(item["slug"] for item in httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"]
                if item["title"] == SERIES)
    return slug, folder


def _open(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_hydration(page)


def _sign_in_as_operator(page: Page, base_url: str) -> None:
    _open(page, base_url + ADMIN)
    expect(page.get_by_role("heading", name=NOT_FOUND)).to_be_visible()
    header_menu(page)
    sign_in_with_google(page, email=OPERATOR_EMAIL, name="運営 者", existing=_signed_in_before.get("done", False))
    _signed_in_before["done"] = True
    expect(page.get_by_role("heading", name="Overview")).to_be_visible()


_signed_in_before: dict[str, bool] = {}


def _shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def _axe_violations(page: Page) -> list[str]:
    """axe-core on the page as it is (evaluated, not injected: the site's CSP refuses injected scripts)."""
    source = Path(_node_module("axe-core/axe.min.js")).read_text()
    result = page.evaluate(source + "\n;axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in result["violations"]]


def _wait_for(check, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the site never showed the change")
        time.sleep(0.5)


def test_console_paths_answer_the_ordinary_404_to_whoever_the_server_renders_for(base_url, own_series):
    slug, _ = own_series
    unknown = httpx.get(f"{base_url}/no-such-page-here", timeout=20)
    for path in (ADMIN, ADMIN + "/", ADMIN_AUDIT, admin_series_url(slug), admin_series_url("no-such-series")):
        response = httpx.get(base_url + path, timeout=20)
        assert response.status_code == 404 == unknown.status_code, path
        text = re.sub(r"<script.*?</script>", "", response.text, flags=re.S)
        # Not checked, since it does not hold: the page's scripts import the console's route module by
        # its name (/assets/_admin_...js), as every route of the one app bundle is (see the README).
        assert NOT_FOUND in text and "Console" not in text and "Overview" not in text and "Audit" not in text, path
        assert re.search(r"<title>(.*?)</title>", response.text)[1] == re.search(r"<title>(.*?)</title>", unknown.text)[1]
    assert "admin" not in httpx.get(f"{base_url}/sitemap.xml", timeout=20).text
    assert "admin" not in httpx.get(f"{base_url}/robots.txt", timeout=20).text


def test_a_signed_in_reader_and_a_guest_see_the_404_and_no_console(browser, base_url, device, page):
    _open(page, base_url + ADMIN)
    header_menu(page)
    sign_in_with_google(page, email=f"reader-{time.time_ns()}@example.com", name="読者")
    expect(page.get_by_test_id("account-name")).to_have_text("読者")
    expect(page.get_by_role("heading", name=NOT_FOUND)).to_be_visible()
    expect(page.get_by_text("Overview")).to_have_count(0)
    page.reload()
    wait_for_hydration(page)
    expect(page.get_by_test_id("account-name")).to_have_text("読者")
    expect(page.get_by_role("heading", name=NOT_FOUND)).to_be_visible()
    expect(page.locator("[data-layout=console]")).to_have_count(0)
    other = another_device(browser)
    try:
        guest = other.new_page()
        _open(guest, base_url + ADMIN_AUDIT)
        header_menu(guest)
        visible(guest, "sign-in-guest").click()
        expect(guest.get_by_test_id("account-name")).to_have_text("ゲスト")
        expect(guest.get_by_role("heading", name=NOT_FOUND)).to_be_visible()
        expect(guest.locator("[data-layout=console]")).to_have_count(0)
    finally:
        other.close()


def test_an_operator_edits_a_series_finds_it_by_its_new_reading_and_a_reimport_keeps_the_edit(
    browser, base_url, server_env, device, page, own_series
):
    slug, folder = own_series
    _sign_in_as_operator(page, base_url)
    _shoot(page, "console-overview-390")
    page.get_by_role("searchbox", name="Find a series").fill("灯台守")
    page.get_by_role("button", name="Find").click()
    page.get_by_role("link", name=SERIES).first.click()
    expect(page.get_by_role("heading", name=SERIES, level=1)).to_be_visible()
    form = page.get_by_test_id("series-form")

    # A bad field: a clear message, nothing saved.
    form.get_by_label("Reading of the title").fill("todaimori")
    form.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Reading must be written in hiragana or katakana")).to_be_visible()

    # The reading, the title and the summary, saved at once.
    form.get_by_label("Reading of the title").fill("とうだいもりのみなとまちへん")
    form.get_by_label("Title", exact=True).fill(SERIES + " 新装版")
    form.get_by_label("Summary").fill("運営者が書いたあらすじ")
    form.get_by_role("button", name="Save").click()
    expect(page.get_by_text("Published: the site shows it")).to_be_visible()
    expect(page.get_by_text("Locked")).to_have_count(3)
    page.set_viewport_size({"width": 1366, "height": 900})
    _shoot(page, "console-series-1366")
    assert not (found := _axe_violations(page)), "\n".join(found)

    # Found by the new reading on the site's search, the new title on its page.
    def found_by_reading() -> bool:
        _open(page, f"{base_url}/search?q=とうだいもりのみなとまちへん")
        return page.locator(".card-title", has_text="新装版").count() > 0
    _wait_for(found_by_reading)
    _open(page, base_url + manga_url(slug))
    expect(page.locator(".title-name")).to_have_text(SERIES + " 新装版")
    expect(page.locator(".title-summary")).to_have_text("運営者が書いたあらすじ")

    # The files change and are imported again: the locked fields stay.
    _write(folder, summary="ファイルの新しいあらすじ", seed=32)
    _import(server_env, folder)
    _open(page, base_url + manga_url(slug))
    expect(page.locator(".title-summary")).to_have_text("運営者が書いたあらすじ")
    expect(page.locator(".title-name")).to_have_text(SERIES + " 新装版")

    # The audit log shows each change, who made it, before and after.
    _open(page, base_url + ADMIN_AUDIT)
    expect(page).to_have_title("Audit log · Console")
    log = page.get_by_test_id("audit-log")
    for what, before, after in ((" title", SERIES, SERIES + " 新装版"), (" summary", "ファイルのあらすじ", "運営者が書いたあらすじ"),
                                (" reading", "", "とうだいもりのみなとまちへん")):
        row = log.locator("tr", has_text=f"series '{slug}'{what}").first
        expect(row).to_contain_text(OPERATOR_EMAIL)
        expect(row).to_contain_text(after)
        if before:
            expect(row).to_contain_text(before)
    _shoot(page, "console-audit-1366")
    page.set_viewport_size({"width": 390, "height": 844})
    _shoot(page, "console-audit-390")
    assert not (found := _axe_violations(page)), "\n".join(found)
    _open(page, base_url + ADMIN)
    expect(page.get_by_test_id("console-counts")).to_contain_text("Series")
    assert not (found := _axe_violations(page)), "\n".join(found)
