"""`make run` serves before the AVIF copies exist (README, "A newcomer's
setup"): its demo is imported with `import --defer-avif`, and `reencode`
makes the AVIF copies in the background while the site runs. A fresh
browser reads JPEG pages and WebP covers until then, and the AVIF ones once
`reencode` has published them, without a restart.

Its own site and store: the shared e2e store has AVIF copies, and an import
into a store that has them makes them whatever it is asked (media.py)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from manga_app.core.routes import manga_url
from tests.e2e.conftest import ROOT, guarded_context, served_app, wait_for_hydration
from tests.e2e.reader_helpers import manifest, open_chapter
from tests.e2e.test_reader_avif import FIRST, _media_types, _path, _shown
from tests.e2e.test_scale_out import PYTHON, SCALE_PORT, SCALE_WEB_DIR

# The scaled site's port and build (test_outage reuses them too): no build of its own.
SITE_PORT, WEB_DIR = SCALE_PORT, SCALE_WEB_DIR


@pytest.fixture(scope="module")
def deferred(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A site whose demo was imported as `make run` imports it, and its environment."""
    data = tmp_path_factory.mktemp("avif-later")
    env = {
        **os.environ,
        "DATA_DIR": str(data),
        "REFLEX_DB_URL": f"sqlite:///{data / 'site.db'}",
        "SITE_ORIGIN": "https://manga.example",
        "UNSAFE_ALLOW_AUTH_EMULATOR": "1",
        "CATALOGUE_REFRESH_SECONDS": "1",
    }
    demo = data / "demo"
    subprocess.run([PYTHON, "-m", "manga_app.demo", str(demo), "--series", "2"], cwd=ROOT, env=env, check=True)
    subprocess.run([PYTHON, "-m", "manga_app.catalogue", "import", "--defer-avif", str(demo)], cwd=ROOT, env=env, check=True)
    with served_app(SITE_PORT, WEB_DIR, env) as url:
        yield url, env


def _a_series(env: dict[str, str]) -> str:
    return sorted(path.name for path in (Path(env["DATA_DIR"]) / "published/manifests").iterdir() if path.is_dir())[0]


def _first_page_and_cover(page: Page, url: str, slug: str) -> tuple[str, str]:
    """The first page's and the title page's cover's files as this browser shows them."""
    open_chapter(page, f"{url}/{slug}-ch-1")
    shown = _shown(page, FIRST)
    page.goto(f"{url}{manga_url(slug)}")
    wait_for_hydration(page)
    return shown, _shown(page, "img.title-cover")


def test_pages_and_covers_come_as_jpeg_and_webp_until_reencode_adds_avif_while_the_site_runs(deferred, browser: Browser) -> None:
    url, env = deferred
    slug = _a_series(env)
    pages = manifest(env, slug, "1")
    assert not any(item.get("avif") or item.get("saver_avif") for item in pages), pages[0]
    with guarded_context(browser) as context:
        page = context.new_page()
        types = _media_types(page)
        first, cover = _first_page_and_cover(page, url, slug)
        assert first == "/" + _path(pages[0]["url"]) and types[first.lstrip("/")] == "image/jpeg", (first, types)
        assert cover.endswith(".webp") and types[cover.lstrip("/")] == "image/webp", (cover, types)

    # What `make run` starts in the background (the Makefile's AVIF_IN_BACKGROUND), the site running.
    subprocess.run([PYTHON, "-m", "manga_app.catalogue", "reencode"], cwd=ROOT, env=env, check=True)
    pages = manifest(env, slug, "1")
    assert all(item.get("avif") and item.get("saver_avif") for item in pages), pages[0]

    # A fresh browser, until the site has picked the new lists up.
    deadline = time.monotonic() + 30
    while True:
        with guarded_context(browser) as context:
            page = context.new_page()
            types = _media_types(page)
            first, cover = _first_page_and_cover(page, url, slug)
        if first.endswith(".avif") and cover.endswith(".avif") or time.monotonic() > deadline:
            break
    assert first == "/" + _path(pages[0]["avif"]) and types[first.lstrip("/")] == "image/avif", (first, types)
    assert cover.endswith(".avif") and types[cover.lstrip("/")] == "image/avif", (cover, types)
