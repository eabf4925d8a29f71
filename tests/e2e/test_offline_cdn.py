"""Reading offline when the media store is another origin (MEDIA_BASE_URL on a
CDN or an object store), in Chromium: a second site publishes its pages with
media on a tiny static server of the test (CORS allowed, as a CDN is set up),
and both a chapter only opened and a chapter saved read offline."""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.e2e.conftest import BASE_PORT, ROOT, served_app
from tests.e2e.reader_helpers import counter, image_decoded, open_chapter, show_menu
from tests.e2e.test_offline import reader_interactive, worker_in_control

SITE_PORT = BASE_PORT + 3
MEDIA_PORT = BASE_PORT + 4
SITE_WEB_DIR = os.environ.get("E2E_CDN_WEB_DIR", ".web-cdn")
PYTHON = str(ROOT / ".venv/bin/python")
INDEX_KEY = "manga_offline_chapters"


class _MediaHandler(SimpleHTTPRequestHandler):
    """The media store as a CDN serves it: immutable files, any origin may read them."""

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        super().end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def cdn_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """(site URL, media origin): a one-series site whose media is on another origin."""
    data = tmp_path_factory.mktemp("e2e-cdn")
    media_origin = f"http://127.0.0.1:{MEDIA_PORT}"
    env = {
        **os.environ,
        "DATA_DIR": str(data),
        "REFLEX_DB_URL": f"sqlite:///{data / 'cdn.db'}",
        "MEDIA_BASE_URL": f"{media_origin}/media",
        "SITE_ORIGIN": "https://manga.example",
        "UNSAFE_ALLOW_AUTH_EMULATOR": "1",
    }
    subprocess.run([PYTHON, "-m", "manga_app.demo", str(data / "demo"), "--series", "1"], cwd=ROOT, env=env, check=True)
    subprocess.run([PYTHON, "-m", "manga_app.catalogue", "import", str(data / "demo")], cwd=ROOT, env=env, check=True)
    media = ThreadingHTTPServer(("127.0.0.1", MEDIA_PORT), partial(_MediaHandler, directory=str(data)))
    threading.Thread(target=media.serve_forever, daemon=True).start()
    try:
        with served_app(SITE_PORT, SITE_WEB_DIR, env) as url:
            yield url, media_origin
    finally:
        media.shutdown()
        media.server_close()


def read_every_page(page: Page, total: int, *, backwards: bool = False) -> None:
    """Every page shows, turned from the first (right to left), or back from the last."""
    reader_interactive(page)
    for index in reversed(range(total)) if backwards else range(total):
        expect(counter(page)).to_have_text(f"{index + 1} / {total}")
        image_decoded(page, f".reader-stage img[data-page-index='{index}']")
        page.keyboard.press("ArrowRight" if backwards else "ArrowLeft")


def test_chapters_opened_or_saved_with_media_on_another_origin_read_offline(
    cdn_site: tuple[str, str], context: BrowserContext, page: Page
) -> None:
    site, media_origin = cdn_site
    slug = page.context.request.get(f"{site}/mangas_1.json").json()["list"][0]["slug"]
    first, second = f"/{slug}-ch-1", f"/{slug}-ch-2"

    # Opened and read online, then left for the next chapter: kept without asking.
    open_chapter(page, site + first)
    worker_in_control(page)
    assert page.locator(".reader-stage img").first.get_attribute("src").startswith(media_origin + "/media/")
    total = int(counter(page).inner_text().split("/")[1])
    read_every_page(page, total)
    show_menu(page)
    page.locator(".reader-overlay .reader-next").click()
    expect(page).to_have_url(re.compile(re.escape(site + second)))
    page.wait_for_function(
        "([key, chapter]) => Object.values((JSON.parse(localStorage.getItem(key) || 'null') || {items: {}}).items)"
        ".some((entry) => entry.key === chapter && entry.files.length > 0)",
        arg=[INDEX_KEY, f"{slug}/1"],
    )

    # Saved from the reader's menu.
    open_chapter(page, site + second)
    show_menu(page)
    save = page.get_by_test_id("offline-save-chapter")
    save.click()
    expect(save).to_have_text("保存済み")
    second_total = int(counter(page).inner_text().split("/")[1])

    context.set_offline(True)
    page.goto(site + first)
    expect(page.get_by_test_id("offline-banner")).to_be_visible()
    read_every_page(page, total, backwards=True)  # it opens where the reader left it
    page.goto(site + second)
    read_every_page(page, second_total)
