"""Double pages of chapters imported for the test through the real CLI, with
their spread (a page wider than tall) where the test wants it: the pairs the
importer worked out for them, and the read marks of a chapter read in pairs.

Eight pages each, right to left (ArrowLeft turns forward):
- chapter 1, the spread at page index 3 (the 4th page): printed, pages 2-3
  face each other before it, so the first page stands alone;
- chapter 2, the spread at page index 2: pairs start with the first page."""

from __future__ import annotations

import io
import subprocess
import time
import zipfile
from pathlib import Path

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from manga_app.core import routes
from tests.e2e.conftest import ROOT, wait_for_hydration
from tests.e2e.reader_helpers import HISTORY_KEY, choose, counter, open_chapter, visible_pages

SERIES = "見開き位置見本"
PAGES = 8
SPREAD_AT = {"1": 3, "2": 2}
PORTRAIT, WIDE = (300, 430), (600, 430)


def _cbz(path: Path, number: str, spread_at: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for index in range(PAGES):
            buffer = io.BytesIO()
            Image.new("RGB", WIDE if index == spread_at else PORTRAIT, (250, 240 - 20 * index, 230)).save(buffer, "JPEG")
            archive.writestr(f"{index + 1:03}.jpg", buffer.getvalue())
        archive.writestr(
            "ComicInfo.xml",
            f"<?xml version='1.0' encoding='utf-8'?><ComicInfo><Series>{SERIES}</Series><Number>{number}</Number>"
            "<LanguageISO>ja</LanguageISO><Manga>YesAndRightToLeft</Manga></ComicInfo>",
        )


@pytest.fixture(scope="module")
def slug(base_url: str, server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("spreads")
    for number, spread_at in SPREAD_AT.items():
        _cbz(root / SERIES / f"{SERIES} 第{number}話.cbz", number, spread_at)
    imported = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(root)],
        cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300,
    )
    assert imported.returncode == 0, imported.stdout + imported.stderr
    deadline = time.monotonic() + 30
    while True:
        found = [item["slug"] for item in httpx.get(base_url + "/mangas_1.json").json()["list"] if item["title"] == SERIES]
        if found and httpx.get(base_url + routes.manga_url(found[0])).status_code == 200:
            return found[0]
        assert time.monotonic() < deadline, "the imported series never reached the held catalogue"
        time.sleep(0.5)


def _read_through(page: Page, screens: list[tuple[str, list[int]]]) -> None:
    """From the first page to the end card, screen by screen: the counter
    and the pages shown on each."""
    page.keyboard.press("Home")
    for label, shown in screens:
        expect(counter(page)).to_have_text(label)
        assert sorted(visible_pages(page)) == shown, label
        for index in shown:
            expect(page.locator(f".reader-stage img[data-page-index='{index}']")).to_be_visible()
        page.keyboard.press("ArrowLeft")
    expect(page.locator(".reader-end")).to_be_visible()


def test_a_spread_at_an_odd_page_pairs_as_printed_without_the_toggle(base_url: str, slug: str, desktop: Page) -> None:
    open_chapter(desktop, f"{base_url}/{slug}-ch-1")
    choose(desktop, ("見開き", "見開き"))
    # The first page alone, its neighbours facing each other, the spread alone.
    _read_through(desktop, [
        ("1 / 8", [0]),
        ("2-3 / 8", [1, 2]),
        ("4 / 8", [3]),
        ("5-6 / 8", [4, 5]),
        ("7-8 / 8", [6, 7]),
    ])


def test_a_spread_at_an_even_page_pairs_from_the_first_page(base_url: str, slug: str, desktop: Page) -> None:
    open_chapter(desktop, f"{base_url}/{slug}-ch-2")
    choose(desktop, ("見開き", "見開き"))
    _read_through(desktop, [
        ("1-2 / 8", [0, 1]),
        ("3 / 8", [2]),
        ("4-5 / 8", [3, 4]),
        ("6-7 / 8", [5, 6]),
        ("8 / 8", [7]),
    ])


def _reported(page: Page, number: str, at_least: int) -> None:
    """The series' history (kept by the server in localStorage) has the
    chapter at `at_least` or further."""
    page.wait_for_function(
        """([key, title, number, index]) => (JSON.parse(localStorage.getItem(key) || '[]'))
             .some(e => e.title === title && String(e.chapter) === number && e.page >= index)""",
        arg=[HISTORY_KEY, SERIES, number, at_least],
    )


def test_a_chapter_read_to_its_last_pair_is_read_and_one_left_in_a_pair_is_not(base_url: str, slug: str, desktop: Page) -> None:
    # Read in pairs up to the last one, never turning on to the end card.
    open_chapter(desktop, f"{base_url}/{slug}-ch-1")
    choose(desktop, ("見開き", "見開き"))
    for label in ("2-3 / 8", "4 / 8", "5-6 / 8", "7-8 / 8"):
        desktop.keyboard.press("ArrowLeft")
        expect(counter(desktop)).to_have_text(label)
    expect(desktop.locator(".reader-end")).to_have_count(0)
    _reported(desktop, "1", 6)
    # Left at the pair 4-5 of the next chapter.
    open_chapter(desktop, f"{base_url}/{slug}-ch-2")
    desktop.keyboard.press("ArrowLeft")
    expect(counter(desktop)).to_have_text("3 / 8")
    desktop.keyboard.press("ArrowLeft")
    expect(counter(desktop)).to_have_text("4-5 / 8")
    _reported(desktop, "2", 3)

    desktop.goto(base_url + routes.manga_url(slug))
    wait_for_hydration(desktop)
    read, left = (desktop.locator(f".chapter-row[data-number='{number}']") for number in ("1", "2"))
    expect(read.locator(".read-mark")).to_have_text("既読")
    expect(read.locator(".read-progress")).to_have_count(0)
    expect(left.locator(".read-mark")).to_have_count(0)
    expect(left.locator(".read-progress")).to_have_text("5/8")
