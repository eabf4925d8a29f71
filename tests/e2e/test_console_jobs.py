"""The console's jobs end to end (real Chromium, the Auth emulator, the real
importer run by the huey consumer manga_app.serve starts): an operator
registers a server folder as a library, a bad path is refused with the
reason, a scan runs as a job whose progress and per-file results the page
shows (a non-comic, a broken archive and a zip bomb each refused with a
reason, the rest imported), and the series are on the site; the operator
puts the library on a daily schedule and sees its next scan, a day after
the scan began, which the page still shows after a reload. The server is
killed during a scan: started again, it resumes the job, which ends as a
clean import would, with no orphan media."""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from datetime import datetime, timedelta
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

from manga_app.core.routes import ADMIN_JOBS, manga_url
from manga_app.core.db import make_engine
from tests.unit.catalogue.builders import distinct_pages, write_cbz, write_folder, zip_bomb
from tests.unit.catalogue.checks import assert_no_orphan_media, chapter_rows
from tests.unit.catalogue.test_cli import _noise_jpeg

from .conftest import RUNNING
from .test_console import _axe_violations, _open, _shoot, _sign_in_as_operator, _wait_for
from .test_accounts import device  # noqa: F401

CBZ_SERIES, FOLDER_SERIES = "潮騒の図書館", "風見鶏の坂道"


def _library(root) -> None:
    pages = distinct_pages(3, seed=41)
    write_cbz(root / CBZ_SERIES / f"{CBZ_SERIES} 第1話.cbz", {f"{i + 1}.png": p for i, p in enumerate(pages)})
    write_folder(root / FOLDER_SERIES / "第1話", {f"{i + 1:02d}.png": p for i, p in enumerate(distinct_pages(2, seed=42))})
    (root / CBZ_SERIES / f"{CBZ_SERIES} 第2話.cbz").write_bytes(b"PK\x03\x04 this archive is cut short")
    zip_bomb(root / CBZ_SERIES / f"{CBZ_SERIES} 第3話.cbz", megabytes=80)
    (root / "readme.txt").write_text("not a comic")


def _on_site(base_url: str, title: str) -> str | None:
    listed = httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"]
    return next((item["slug"] for item in listed if item["title"] == title), None)


def test_an_operator_scans_a_library_and_follows_the_job_to_the_site(base_url, server_env, device, page: Page, tmp_path):
    library = tmp_path / "comics"
    _library(library)
    _sign_in_as_operator(page, base_url)
    page.get_by_role("link", name="Jobs").click()
    expect(page.get_by_role("heading", name="Jobs", level=1)).to_be_visible()

    # A path that cannot be a library: the reason, nothing registered.
    page.get_by_label("Folder on the server").fill("comics/here")
    page.get_by_role("button", name="Add library").click()
    expect(page.get_by_role("alert")).to_contain_text("is not a full path")
    expect(page.get_by_test_id("libraries").locator("li")).to_have_count(0)

    page.get_by_label("Folder on the server").fill(str(library))
    page.get_by_role("button", name="Add library").click()
    expect(page.get_by_text("is now a library")).to_be_visible()
    page.get_by_role("button", name=f"Scan now: {library}").click()
    expect(page.get_by_text("queued: Scan of")).to_be_visible()

    # The page follows the job by itself until it is done.
    job = page.get_by_test_id("jobs").locator("tr[data-status]").first
    expect(job).to_have_attribute("data-status", "done", timeout=120_000)
    expect(job).to_contain_text("2 imported, 0 unchanged, 2 failed")
    expect(job.get_by_role("progressbar")).to_have_attribute("value", "100")
    _shoot(page, "console-jobs-390")
    job.get_by_role("button", name="Files of job").click()
    files = page.get_by_test_id("job-files")
    expect(files.locator("tr", has_text="第2話.cbz")).to_contain_text("failed")
    expect(files.locator("tr", has_text="第3話.cbz")).to_contain_text("failed")
    expect(files.locator("tr", has_text="readme.txt")).to_contain_text("is not a comic")
    expect(files.locator("tr", has_text="第1話")).to_have_count(2)
    assert not (found := _axe_violations(page)), "\n".join(found)

    # Both series are on the site.
    _wait_for(lambda: _on_site(base_url, CBZ_SERIES) and _on_site(base_url, FOLDER_SERIES))
    _open(page, base_url + manga_url(_on_site(base_url, FOLDER_SERIES)))
    expect(page.locator(".title-name")).to_have_text(FOLDER_SERIES)

    # A daily schedule: the next scan is a day after this scan began, kept across a reload.
    _open(page, base_url + ADMIN_JOBS)
    row = page.get_by_test_id("libraries").locator("li", has_text=str(library))
    expect(row).to_contain_text("No scheduled scans")
    row.get_by_label(f"Scheduled scans: {library}").select_option(label="Daily")
    began = _scan_began(server_env["REFLEX_DB_URL"], f"Scan of {library}")
    expected = f"{began + timedelta(days=1):%Y-%m-%d %H:%M} UTC"
    expect(page.get_by_role("status")).to_contain_text(f"{library} is scanned every day; next scan at {expected}.")
    expect(row).to_contain_text(f"Next scan: {expected}")
    page.reload()
    expect(row.get_by_label(f"Scheduled scans: {library}")).to_have_value("daily")
    expect(row).to_contain_text(f"Next scan: {expected}")


def _scan_began(db: str, label: str) -> datetime:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as connection:
        text = connection.execute("select created_at from import_job where label = ?", (label,)).fetchone()[0]
    return datetime.fromisoformat(text)


def _job_state(db: str, label: str) -> tuple[str, int] | None:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as connection:
        return connection.execute("select status, chapters_done from import_job where label = ? order by id desc",
                                  (label,)).fetchone()


def _scan_a_new_library(page: Page, base_url: str, library: Path, series: str, seed: int) -> str:
    """24 chapters of 4 pages of `series` in `library`, which the operator
    registers and scans from /admin/jobs; the scan job's label."""
    for chapter in range(1, 25):
        pages = {f"{i}.jpg": _noise_jpeg(chapter * seed + i, size=(600, 850)) for i in range(4)}
        write_cbz(library / series / f"{series} 第{chapter}話.cbz", pages)
    _sign_in_as_operator(page, base_url)
    _open(page, base_url + ADMIN_JOBS)
    page.get_by_label("Folder on the server").fill(str(library))
    page.get_by_role("button", name="Add library").click()
    page.get_by_role("button", name=f"Scan now: {library}").click()
    return f"Scan of {library}"


def test_the_server_killed_during_a_scan_resumes_it_after_its_restart(base_url, server_env, device, page: Page, tmp_path):
    series = "嵐の灯台守"
    label = _scan_a_new_library(page, base_url, tmp_path / "big", series, seed=10)
    db = server_env["REFLEX_DB_URL"]
    deadline = time.monotonic() + 180
    while (_job_state(db, label) or ("", 0))[1] < 2:
        assert time.monotonic() < deadline, f"the scan never got going: {_job_state(db, label)}"
        time.sleep(0.2)
    assert _job_state(db, label)[0] == "running"

    RUNNING[base_url].restart(signal.SIGKILL)  # the machine loses power, say, and comes back

    _open(page, base_url + ADMIN_JOBS)
    job = page.get_by_test_id("jobs").locator("tr", has_text=label).first
    expect(job).to_have_attribute("data-status", "done", timeout=180_000)
    expect(job).to_contain_text("unchanged, 0 failed")
    engine = make_engine(db)
    try:
        rows = [row for row in chapter_rows(engine) if row[0] == series]
        assert len(rows) == 24 and all(pages == 4 for _, _, pages in rows)
        assert_no_orphan_media(engine, Path(server_env["DATA_DIR"]) / "media")
    finally:
        engine.dispose()


def test_an_operator_cancels_a_running_scan_and_keeps_whole_chapters(base_url, server_env, device, page: Page, tmp_path):
    series = "凪の観測所"
    label = _scan_a_new_library(page, base_url, tmp_path / "long", series, seed=7)
    db = server_env["REFLEX_DB_URL"]
    job = page.get_by_test_id("jobs").locator("tr", has_text=label).first
    expect(job).to_have_attribute("data-status", "running", timeout=120_000)
    # The time left, once the first pages are done (a while on a busy machine: the e2e suite runs in two processes).
    expect(job.locator("td[data-label='Time left']")).to_contain_text("about", timeout=60_000)
    job.get_by_role("button", name="Cancel job").click()
    expect(job).to_have_attribute("data-status", "cancelled", timeout=60_000)
    expect(job).to_contain_text("complete and kept")
    engine = make_engine(db)
    try:
        rows = [row for row in chapter_rows(engine) if row[0] == series]
        assert len(rows) < 24 and all(pages == 4 for _, _, pages in rows)
        assert_no_orphan_media(engine, Path(server_env["DATA_DIR"]) / "media")
    finally:
        engine.dispose()


def _group_alive(group: int) -> list[str]:
    """The command lines of the processes still in process group `group`."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and os.getpgid(int(entry.name)) == group:
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip())
        except (ProcessLookupError, PermissionError, FileNotFoundError):
            continue
    return [line for line in found if line]


def test_a_server_told_to_stop_stops_its_job_consumer_too(base_url):
    # `kill <pid>` or a service manager's SIGTERM to the server process alone:
    # what it started beside itself (the job consumer) stops with it.
    server = RUNNING[base_url]
    group = server.process.pid
    assert any("manga_app.jobs" in line for line in _group_alive(group))
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=90)
    deadline = time.monotonic() + 70
    while _group_alive(group) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = _group_alive(group)
    server.log.close()
    server.start()  # the next tests' server
    assert left == [], f"left running: {left}"
