"""What the reader's end-to-end tests need to know of the demo library, and
the few moves every one of them makes (open a chapter, open the settings)."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import time
import uuid
import zipfile
from pathlib import Path

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from manga_app.core import routes
from manga_app.core.crypto import decrypt_text, encrypt_text
from tests.e2e.conftest import ROOT, wait_for_hydration

POSITIONS_KEY = "manga_reader_positions"
HISTORY_KEY = "manga_reading_history"
SETTINGS_KEY = "manga_reader_settings"


def db(server_env: dict[str, str]) -> sqlite3.Connection:
    return sqlite3.connect(server_env["REFLEX_DB_URL"].removeprefix("sqlite:///"))


def demo_series(server_env: dict[str, str], direction: str) -> list[str]:
    """The demo library's series of that reading direction, by slug: series
    that other test modules import into the same site are never among them."""
    demo = str(Path(server_env["DATA_DIR"]) / "demo") + "/%"
    with db(server_env) as connection:
        return [row[0] for row in connection.execute(
            "select distinct series.slug from series join chapter on chapter.series_id = series.id "
            "where series.direction = ? and chapter.source_path like ? order by series.slug", (direction, demo))]


def series(server_env: dict[str, str], direction: str, *, spreads: bool = False) -> str:
    """A series slug of that reading direction (with a spread in chapter 1).

    The demo library always has these: a missing one is a broken demo, and
    the test fails rather than silently testing nothing."""
    slugs = demo_series(server_env, direction)
    for slug in slugs:
        if not spreads or any(page["width"] > page["height"] for page in manifest(server_env, slug, "1")):
            return slug
    pytest.fail(f"the demo library has no {direction} series{' with a spread in chapter 1' if spreads else ''}")


def series_of(server_env: dict[str, str], direction: str, count: int) -> list[str]:
    slugs = demo_series(server_env, direction)
    if len(slugs) < count:
        pytest.fail(f"the demo library has fewer than {count} {direction} series")
    return slugs[:count]


def series_with_chapters(server_env: dict[str, str], direction: str, count: int) -> str:
    """The series of that direction with the most chapters (at least `count`)."""
    with db(server_env) as connection:
        found = connection.execute(
            "select series.slug, count(chapter.id) as chapters from series join chapter on chapter.series_id = series.id "
            "where series.direction = ? group by series.slug order by chapters desc, series.slug limit 1",
            (direction,),
        ).fetchone()
    if found is None or found[1] < count:
        pytest.fail(f"the demo library has no {direction} series with {count} chapters")
    return found[0]


def last_chapter_of(server_env, status: str) -> tuple[str, str, str]:
    """(slug, url of its last chapter, reading direction) of a demo series with that status and chapters."""
    with db(server_env) as connection:
        found = connection.execute(
            "select series.slug, series.direction from series join chapter on chapter.series_id = series.id "
            "where series.status = ? group by series.id having count(chapter.id) > 1 order by series.slug limit 1",
            (status,),
        ).fetchone()
    if found is None:
        pytest.fail(f"the demo library has no {status} series with chapters")
    slug, direction = found
    # The last unit may be a volume (a series another test imported as 第1話 + 第1巻):
    # its reader URL is the volume's, never `-ch-{key}`.
    return slug, routes.chapter_url(slug, chapter_numbers(server_env, slug)[-1]), direction


def chapter_numbers(server_env: dict[str, str], slug: str) -> list[str]:
    folder = Path(server_env["DATA_DIR"]) / "published" / "manifests" / slug
    numbers = [routes.parse_unit_segment(path.stem) for path in folder.glob("*.json") if not path.name.startswith(".")]
    return sorted(numbers, key=float)


def manifest_path(server_env: dict[str, str], slug: str, number: str) -> Path:
    """The published file of unit key `number` (a volume's is `{n}-vol.json`)."""
    return Path(server_env["DATA_DIR"]) / "published" / routes.manifest_path(slug, number).lstrip("/")


def content_key(server_env: dict[str, str]) -> str:
    return (Path(server_env["DATA_DIR"]) / "content_key").read_text().strip()


def manifest(server_env: dict[str, str], slug: str, number: str) -> list[dict]:
    envelope = json.loads(manifest_path(server_env, slug, number).read_text())
    return json.loads(decrypt_text(envelope["data"], content_key(server_env), envelope["iv"]))


def write_manifest(server_env: dict[str, str], slug: str, number: str, pages: list[dict], key: str | None = None) -> None:
    data, iv = encrypt_text(json.dumps(pages), key or content_key(server_env))
    manifest_path(server_env, slug, number).write_text(json.dumps({"iv": iv, "data": data}))


def chapter_views(server_env: dict[str, str], slug: str, number: str) -> int:
    hundredths = round(float(number) * 100)
    with db(server_env) as connection:
        return connection.execute(
            "select chapter.views from chapter join series on series.id = chapter.series_id "
            "where series.slug = ? and chapter.number_hundredths = ?",
            (slug, hundredths),
        ).fetchone()[0]


def open_chapter(page: Page, url: str) -> None:
    """Opens a chapter and waits until the reader answers keys and taps (its
    first page shows earlier, from the server's HTML)."""
    page.goto(url)
    wait_for_hydration(page)
    expect(page.locator(".reader-root img.reader-page").first).to_be_visible()
    expect(page.locator(".reader-root")).to_have_attribute("data-interactive", "true")


def counter(page: Page):
    return page.locator(".reader-counter")


def visible_pages(page: Page) -> list[int]:
    return page.locator(".reader-stage img").evaluate_all("els => els.map(e => Number(e.dataset.pageIndex))")


def show_menu(page: Page) -> None:
    """Shows the overlay (Esc toggles it) if reading has hidden it."""
    overlay = page.locator(".reader-overlay")
    if overlay.get_attribute("data-visible") == "false":
        page.keyboard.press("Escape")
    expect(overlay).to_have_attribute("data-visible", "true")


def choose(page: Page, *choices: tuple[str, str]) -> None:
    """Picks (legend, label) choices in the settings sheet, then closes it."""
    show_menu(page)
    page.get_by_role("button", name="⚙ 設定").click()
    sheet = page.get_by_role("dialog", name="表示設定")
    for legend, label in choices:
        button = sheet.locator("fieldset", has=page.locator(f"legend:text-is('{legend}')")).get_by_role("button", name=label, exact=True)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
    sheet.get_by_role("button", name="閉じる").click()
    expect(sheet).to_have_count(0)
    # Focus is back on the settings button; leave the menu as a reader would.
    page.keyboard.press("Escape")
    expect(page.locator(".reader-overlay")).to_have_attribute("data-visible", "false")


def stored_position(page: Page, slug: str, number: str) -> list | None:
    return page.evaluate(
        "([key, name]) => (JSON.parse(localStorage.getItem(name) || 'null') || {items: {}}).items[key] || null",
        [f"{slug}/{number}", POSITIONS_KEY],
    )


def image_decoded(page: Page, selector: str) -> str:
    """Waits until the first match is decoded; the URL of the file it shows, read in the
    same check: a <picture> whose sources change (the site learnt of new AVIF copies)
    loads again, and its currentSrc is empty until the new file is chosen."""
    return page.wait_for_function(
        "s => { const e = document.querySelector(s); return e && e.complete && e.naturalWidth > 0 && e.currentSrc }",
        arg=selector,
    ).json_value()


def _cbz(path: Path, count: int) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for index in range(count):
            out = io.BytesIO()
            Image.new("RGB", (600, 900), (30 * index % 255, 90, 160)).save(out, "PNG")
            archive.writestr(f"{index + 1:03}.png", out.getvalue())


def imported_series(base_url: str, server_env, root: Path) -> str:
    """A new series with volume 1 (2 pages) and chapter 9 (3 pages), imported
    through the real CLI; its slug once the site publishes it."""
    title = f"保存見本{uuid.uuid4().hex[:4]}"
    return imported_item(base_url, server_env, root, title, (("第1巻", 2), ("第9話", 3)))["slug"]


def imported_item(base_url: str, server_env, root: Path, title: str, units: tuple[tuple[str, int], ...]) -> dict:
    """A series `title` of CBZ units (name like `第1巻`, page count), imported
    through the real CLI; its list item once the site publishes it."""
    folder = root / title
    folder.mkdir(parents=True)
    for name, count in units:
        _cbz(folder / f"{title} {name}.cbz", count)
    result = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(root)],
        cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        items = httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"]
        found = next((item for item in items if item["title"] == title), None)
        if found and server_lists(base_url, title, found["slug"]):
            return found
        time.sleep(0.5)
    raise AssertionError(f"{title} never reached the published catalogue and the server's search")


def server_lists(base_url: str, query: str, slug: str) -> bool:
    """The server has taken in the published lists that hold `slug` (it
    reloads them on its own clock, after the file changed): its search for
    `query` links the series among the results."""
    html = httpx.get(base_url + routes.search_url(q=query), timeout=10).text
    return f'href="{routes.manga_url(slug)}"' in html.partition('aria-label="検索結果"')[2]
