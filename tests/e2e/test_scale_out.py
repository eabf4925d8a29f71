"""The scale-out path of DESIGN.md, run for real: several backend workers
sharing state through Redis, the catalogue and user data in PostgreSQL.

A second server (its own build, port and data) runs with REFLEX_REDIS_URL,
WEB_CONCURRENCY=3 and REFLEX_DB_URL pointing at a scratch PostgreSQL
database. Visitors arrive on fresh connections, which the workers share
between them, and must see one site: the same catalogue, search results as
they type, the reader, and an import that every worker picks up."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
import sqlalchemy as sa
from playwright.sync_api import Browser, Page, expect

from manga_app.core import routes
from tests.e2e.conftest import BASE_PORT, DEMO_SERIES, ROOT, served_app, wait_for_hydration
from tests.e2e.test_catalogue_http import _write_cbz
from tests.postgres import scratch_database

SCALE_PORT = BASE_PORT + 2
SCALE_WEB_DIR = os.environ.get("E2E_SCALE_WEB_DIR", ".web-scale")
WORKERS = 3
REDIS_URL = os.environ.get("MANGA_TEST_REDIS_URL", "redis://127.0.0.1:6379/7")
PYTHON = str(ROOT / ".venv/bin/python")


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with scratch_database("e2e_scale") as url:
        yield sa.engine.make_url(url).set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def scale_env(tmp_path_factory: pytest.TempPathFactory, postgres_url: str) -> dict[str, str]:
    # The test's own Redis database, emptied so no state of an earlier run is picked up.
    redis.Redis.from_url(REDIS_URL).flushdb()
    return scaled_site_env(tmp_path_factory.mktemp("e2e-scale"), postgres_url, REDIS_URL)


def scaled_site_env(data: Path, db_url: str, redis_url: str, **settings: str) -> dict[str, str]:
    """The scaled configuration's environment (WORKERS workers on `redis_url`
    and `db_url`), with the demo catalogue imported into it."""
    env = {
        **os.environ,
        "DATA_DIR": str(data),
        "REFLEX_DB_URL": db_url,
        "REFLEX_REDIS_URL": redis_url,
        "WEB_CONCURRENCY": str(WORKERS),
        "SITE_ORIGIN": "https://manga.example",
        # A public origin with the Auth emulator: only with the explicit opt-in.
        "UNSAFE_ALLOW_AUTH_EMULATOR": "1",
        "CATALOGUE_REFRESH_SECONDS": "1",
        **settings,
    }
    demo = data / "demo"
    subprocess.run([PYTHON, "-m", "manga_app.demo", str(demo), "--series", str(DEMO_SERIES)], cwd=ROOT, env=env, check=True)
    # Without AVIF copies (half the import's time): these sites are about
    # workers, Redis and PostgreSQL; formats are test_reader_avif's and
    # test_avif_later's, on the session's site.
    subprocess.run([PYTHON, "-m", "manga_app.catalogue", "import", "--defer-avif", str(demo)], cwd=ROOT, env=env, check=True)
    return env


@pytest.fixture(scope="module")
def scale_url(scale_env: dict[str, str]) -> Iterator[str]:
    with served_app(SCALE_PORT, SCALE_WEB_DIR, scale_env) as url:
        yield url


def _fresh_page(browser: Browser) -> Page:
    """A new visitor: new context, so a new websocket and a new client token."""
    return browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844}).new_page()


def _worker_pids(scale_env: dict[str, str]) -> set[int]:
    """Processes serving this site (the server and the workers it spawned), from /proc."""
    pids = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            environ, cmdline = (proc / "environ").read_bytes(), (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if f"DATA_DIR={scale_env['DATA_DIR']}".encode() in environ and (
                b"manga_app.serve" in cmdline or b"multiprocessing.spawn" in cmdline):
            pids.add(int(proc.name))
    return pids


def test_the_site_runs_as_several_workers_on_redis_and_postgresql(scale_url: str, scale_env: dict[str, str], browser: Browser) -> None:
    # The server process plus its workers, all serving this site.
    assert len(_worker_pids(scale_env)) >= WORKERS + 1
    titles = [item["title"] for item in httpx.get(scale_url + "/mangas_1.json").json()["list"]]
    assert len(titles) == DEMO_SERIES
    page = _fresh_page(browser)
    page.goto(scale_url + "/")
    wait_for_hydration(page)
    expect(page.locator("#home-latest")).to_be_visible()
    expect(page.locator("main").get_by_text(titles[0]).first).to_be_visible()
    page.context.close()


def test_visitors_spread_over_the_workers_all_get_search_results_as_they_type(scale_url: str, browser: Browser) -> None:
    item = httpx.get(scale_url + "/mangas_1.json").json()["list"][0]
    pages = [_fresh_page(browser) for _ in range(WORKERS * 2)]
    try:
        for page in pages:
            page.goto(scale_url + routes.SEARCH)
            wait_for_hydration(page)
        for page in pages:
            page.get_by_role("combobox", name="検索キーワード").press_sequentially(item["title"][:3], delay=30)
        for page in pages:
            expect(page.locator("main .card-grid .card-title").first).to_contain_text(item["title"][:3])
    finally:
        for page in pages:
            page.context.close()


def test_a_reader_on_one_worker_resumes_after_a_reload_on_any(scale_url: str, browser: Browser) -> None:
    item = httpx.get(scale_url + "/mangas_1.json").json()["list"][0]
    page = _fresh_page(browser)
    try:
        page.goto(scale_url + routes.chapter_url(item["slug"], item["latest_chapter"]))
        wait_for_hydration(page)
        first = page.locator("img.reader-page").first
        expect(first).to_be_visible()
        expect(first).to_have_attribute("alt", re.compile(re.escape(item["title"])))
        for _ in range(3):
            page.reload()
            wait_for_hydration(page)
            expect(page.locator("img.reader-page").first).to_be_visible()
    finally:
        page.context.close()


def test_an_import_reaches_every_worker_without_a_restart(scale_url: str, scale_env: dict[str, str], browser: Browser, tmp_path: Path) -> None:
    title = "全ワーカーに届く作品"
    _write_cbz(tmp_path / title / f"{title} 第1話.cbz", series=title, genre="スケール")
    imported = subprocess.run(
        [PYTHON, "-m", "manga_app.catalogue", "import", str(tmp_path)], cwd=ROOT, env=scale_env, capture_output=True, text=True
    )
    assert imported.returncode == 0, imported.stdout + imported.stderr
    # Each fresh visitor may land on another worker; every one must find it.
    deadline = time.monotonic() + 30
    found = 0
    while found < WORKERS * 2:
        assert time.monotonic() < deadline, f"only {found} visitors found the new title"
        page = _fresh_page(browser)
        try:
            page.goto(scale_url + routes.search_url(q=title))
            wait_for_hydration(page)
            cards = page.locator("main .card-grid .card-title")
            page.wait_for_function("() => /件$/.test(document.querySelector('.result-count')?.textContent || '')")
            if cards.count() and title in cards.first.inner_text():
                found += 1
            else:
                time.sleep(0.5)
        finally:
            page.context.close()
