"""The console's upload end to end (real Chromium, the Auth emulator, Uppy
sending over tus to the site's /admin/tus, the huey consumer manga_app.serve
starts): an operator drops two CBZs on /admin/upload and sees the plan (a new
series with its chapter; a file without a number, refused with the reason),
places the second by hand, confirms, and the import job brings both to the
site."""

from __future__ import annotations

import os
import re

import httpx
from playwright.sync_api import Page, expect

from manga_app.core.routes import ADMIN_JOBS, ADMIN_UPLOAD
from tests.unit.catalogue.builders import distinct_pages, write_cbz, write_folder

from .test_console import _axe_violations, _open, _shoot, _sign_in_as_operator, _wait_for
from .test_accounts import device  # noqa: F401

SERIES = "夜明けの灯台"


def _on_site(base_url: str, title: str) -> str | None:
    listed = httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"]
    return next((item["slug"] for item in listed if item["title"] == title), None)


def test_an_operator_uploads_a_cbz_sees_the_plan_and_imports_it(base_url, device, page: Page, tmp_path):
    cbz = write_cbz(tmp_path / f"{SERIES} 第1話.cbz", {f"{i + 1}.png": p for i, p in enumerate(distinct_pages(3, seed=71))})
    _sign_in_as_operator(page, base_url)
    page.get_by_role("link", name="Upload").click()
    expect(page.get_by_role("heading", name="Upload", level=1)).to_be_visible()
    expect(page.get_by_text("Nothing is staged.")).to_be_visible()

    loose = write_cbz(tmp_path / "unnamed.cbz", {f"{i + 1}.png": p for i, p in enumerate(distinct_pages(2, seed=72))})
    page.get_by_test_id("uploader").locator("input[type=file]:not([webkitdirectory])").first.set_input_files(
        [str(cbz), str(loose)])
    row = page.get_by_test_id("plan").locator("tr", has_text=cbz.name)
    expect(row).to_have_attribute("data-outcome", "new", timeout=60_000)
    expect(row).to_contain_text("New series")
    expect(row).to_contain_text(SERIES)
    expect(row).to_contain_text("chapter 1")
    refused = page.get_by_test_id("plan").locator("tr", has_text=loose.name)
    expect(refused).to_have_attribute("data-outcome", "refused")
    expect(refused).to_contain_text("no chapter or volume number")
    page.get_by_test_id("plan").scroll_into_view_if_needed()
    _shoot(page, "console-upload-plan")

    # The operator places it: chapter 2 of the same series.
    refused.get_by_role("button", name=f"Edit the placement of {loose.name}").click()
    form = page.get_by_test_id("placement-form")
    form.get_by_label("Series").fill(SERIES)
    form.get_by_label("Unit").select_option("chapter")
    form.get_by_label("Number").fill("2")
    form.get_by_role("button", name="Save placement").click()
    expect(page.get_by_test_id("upload-status")).to_contain_text(f"{loose.name} is placed as chapter 2 of {SERIES}.")
    placed = page.get_by_test_id("plan").locator("tr", has_text=loose.name)
    expect(placed).to_have_attribute("data-outcome", "new")
    expect(placed).to_contain_text("New series (placed by you)")
    expect(placed).to_contain_text("chapter 2")

    # The plan is the server's: a reload shows it again.
    _open(page, base_url + ADMIN_UPLOAD)
    expect(page.get_by_test_id("plan").locator("tr", has_text=cbz.name)).to_have_attribute("data-outcome", "new")

    page.get_by_role("button", name="Confirm and import").click()
    expect(page.get_by_test_id("upload-status")).to_contain_text("queued: Upload of 2 files")
    expect(page.get_by_text("Nothing is staged.")).to_be_visible()
    _open(page, base_url + ADMIN_JOBS)
    job = page.get_by_test_id("jobs").locator("tr[data-status]", has_text="Upload of 2 files").first
    expect(job).to_have_attribute("data-status", "done", timeout=120_000)
    expect(job).to_contain_text("2 imported, 0 unchanged, 0 failed")
    _wait_for(lambda: _on_site(base_url, SERIES))


def test_the_upload_page_and_endpoint_answer_readers_the_ordinary_404(base_url):
    unknown = httpx.get(f"{base_url}/no-such-page-here", timeout=20)
    for path in (ADMIN_UPLOAD, "/admin/tus", "/admin/tus/0123abcd"):
        response = httpx.get(base_url + path, timeout=20)
        assert response.status_code == 404 == unknown.status_code, path
        assert "Upload" not in re.sub(r"<script.*?</script>", "", response.text, flags=re.S), path
    created = httpx.post(f"{base_url}/admin/tus", timeout=20, headers={
        "Tus-Resumable": "1.0.0", "Upload-Length": "10", "Upload-Metadata": "filename YS5jYno="})
    assert created.status_code == 404 and "Location" not in created.headers



def _cut_after_the_first_chunk(base_url, device, page: Page, cbz, created: list[str]) -> None:
    """The file goes in 8 MB chunks; the connection goes down after the first and the tab is closed.
    (Chunks after the first fail as a lost connection does, as well as going offline: on a fast
    machine the second had arrived before set_offline took effect.)"""
    _sign_in_as_operator(page, base_url)
    _open(page, base_url + ADMIN_UPLOAD)
    page.on("request", lambda request: created.append(request.url)
            if request.method == "POST" and "/admin/tus" in request.url else None)
    chunks: list[str] = []

    def first_chunk_only(route) -> None:
        if route.request.method == "PATCH":
            chunks.append(route.request.url)
            if len(chunks) > 1:
                route.abort("internetdisconnected")
                return
        route.continue_()

    page.route("**/admin/tus/**", first_chunk_only)
    files = page.get_by_test_id("uploader").locator("input[type=file]:not([webkitdirectory])").first
    with page.expect_response(lambda response: response.request.method == "PATCH" and response.ok):
        files.set_input_files(str(cbz))
    device.set_offline(True)
    expect(page.get_by_test_id("uploader")).to_contain_text("8 MB of 30 MB")
    page.close()  # the tab goes while the connection is down
    device.set_offline(False)
    assert len(created) == 1


def _reopened(base_url, device, created: list[str]) -> Page:
    page = device.new_page()  # the page again: a new uploader, the same browser's storage
    page.on("request", lambda request: created.append(request.url)
            if request.method == "POST" and "/admin/tus" in request.url else None)
    return page


def _thirty_megabytes(tmp_path, name: str, seed: int):
    pages = {"001.png": distinct_pages(1, seed=seed)[0], "002.png": os.urandom(30 * 1024 * 1024)}
    return write_cbz(tmp_path / name, pages)


def test_an_upload_cut_off_continues_by_itself_in_the_reopened_page(base_url, device, page: Page, tmp_path):
    """Golden Retriever kept the file: the page opened again restores it and
    it continues where it stopped (HEAD: past the first chunk), nothing added
    again and no second upload created."""
    cbz = _thirty_megabytes(tmp_path, "潮見の駅 第1話.cbz", 73)
    created: list[str] = []
    _cut_after_the_first_chunk(base_url, device, page, cbz, created)
    page = _reopened(base_url, device, created)
    with page.expect_response(lambda response: response.request.method == "HEAD" and "/admin/tus/" in response.url,
                              timeout=60_000) as head:
        _open(page, base_url + ADMIN_UPLOAD)
    assert 0 < int(head.value.headers["upload-offset"]) < cbz.stat().st_size
    row = page.get_by_test_id("plan").locator("tr", has_text=cbz.name)
    expect(row).to_have_attribute("data-outcome", "new", timeout=60_000)
    assert len(created) == 1


def test_a_file_the_browser_could_not_keep_is_chosen_again_and_continues(base_url, device, page: Page, tmp_path):
    """A file over what the browser keeps (its bytes not in IndexedDB: here
    cleared from Golden Retriever's store of them) comes back as a name to choose again; chosen, tus finds its
    upload by the file's fingerprint and sends only the rest."""
    cbz = _thirty_megabytes(tmp_path, "汐入の駅 第1話.cbz", 76)
    created: list[str] = []
    _cut_after_the_first_chunk(base_url, device, page, cbz, created)
    page = _reopened(base_url, device, created)
    page.goto(base_url + "/")
    page.evaluate("() => new Promise((done, failed) => { const r = indexedDB.open('uppy-blobs'); r.onerror = failed; "
                  "r.onsuccess = () => { const t = r.result.transaction(['files'], 'readwrite'); "
                  "t.objectStore('files').clear(); t.oncomplete = () => { r.result.close(); done(); }; }; })")
    _open(page, base_url + ADMIN_UPLOAD)
    expect(page.get_by_test_id("uploader")).to_contain_text(cbz.name)
    page.get_by_test_id("uploader").get_by_role("button", name="Add more").click()
    files = page.get_by_test_id("uploader").locator("input[type=file]:not([webkitdirectory])").first
    with page.expect_response(lambda response: response.request.method == "HEAD" and "/admin/tus/" in response.url,
                              timeout=60_000) as head:
        files.set_input_files(str(cbz))
    assert 0 < int(head.value.headers["upload-offset"]) < cbz.stat().st_size
    row = page.get_by_test_id("plan").locator("tr", has_text=cbz.name)
    expect(row).to_have_attribute("data-outcome", "new", timeout=60_000)
    assert len(created) == 1


def test_a_dropped_folder_of_images_keeps_its_series_and_chapter_folders_and_is_imported(base_url, device, page: Page, tmp_path):
    series = tmp_path / "白波の港"
    write_folder(series / "第1話", {f"{i + 1:02d}.png": p for i, p in enumerate(distinct_pages(2, seed=74))})
    write_folder(series / "第2話", {f"{i + 1:02d}.png": p for i, p in enumerate(distinct_pages(2, seed=75))})
    _sign_in_as_operator(page, base_url)
    _open(page, base_url + ADMIN_UPLOAD)
    page.get_by_test_id("uploader").locator("input[type=file][webkitdirectory]").set_input_files(str(series))
    plan = page.get_by_test_id("plan")
    for chapter in ("第1話", "第2話"):
        row = plan.locator("tr", has_text=f"白波の港/{chapter}")
        expect(row).to_have_attribute("data-outcome", "new", timeout=60_000)
        expect(row).to_contain_text(f"chapter {chapter[1]}")
    _shoot(page, "console-upload-folder")
    assert not (found := _axe_violations(page)), "\n".join(found)
    page.get_by_role("button", name="Confirm and import").click()
    # (with what earlier tests of this module left staged for the same operator)
    expect(page.get_by_test_id("upload-status")).to_contain_text(re.compile(r"Job \d+ queued: Upload of \d+ files"))
    number = re.search(r"Job (\d+)", page.get_by_test_id("upload-status").inner_text()).group(1)
    _open(page, base_url + ADMIN_JOBS)
    job = page.get_by_test_id("jobs").locator("tr[data-status]", has_text=f"#{number} Upload of").first
    expect(job).to_have_attribute("data-status", "done", timeout=120_000)
    job.get_by_role("button", name="Files of job").click()
    for chapter in ("第1話", "第2話"):
        expect(page.get_by_test_id("job-files").locator("tr", has_text=f"白波の港/{chapter}")).to_contain_text("imported")
    _wait_for(lambda: _on_site(base_url, "白波の港"))


def _one_line(row) -> bool:
    """The row's Edit and Drop buttons side by side (one line), not wrapped."""
    edit = row.get_by_role("button", name="Edit the placement of").bounding_box()
    drop = row.get_by_role("button", name="Drop ").bounding_box()
    return abs(edit["y"] - drop["y"]) < 2 and drop["x"] > edit["x"] + edit["width"]


def test_a_conflict_is_resolved_before_confirm_and_the_actions_stay_on_one_line(base_url, device, page: Page, tmp_path):
    """Two files claim chapter 1 of one series: Confirm and import is disabled,
    with the file in conflict named, until the operator places it elsewhere;
    then both are imported. The plan's actions stay on one line on a phone
    (390x844) and a laptop (1366x900)."""
    series = "朝凪の坂"
    first = write_cbz(tmp_path / f"{series} 第1話.cbz", {"1.png": distinct_pages(1, seed=77)[0]})
    again = write_cbz(tmp_path / f"{series} 第1話 修正版.cbz", {"1.png": distinct_pages(1, seed=78)[0]})
    page.set_viewport_size({"width": 390, "height": 844})
    _sign_in_as_operator(page, base_url)
    _open(page, base_url + ADMIN_UPLOAD)
    page.get_by_test_id("uploader").locator("input[type=file]:not([webkitdirectory])").first.set_input_files(
        [str(first), str(again)])
    plan = page.get_by_test_id("plan")
    conflict = plan.locator("tr", has_text=again.name)
    expect(conflict).to_have_attribute("data-outcome", "conflict", timeout=60_000)
    expect(conflict).to_contain_text(f"chapter 1 is also {first.name} in this upload")
    confirm = page.get_by_role("button", name="Confirm and import")
    expect(confirm).to_be_disabled()
    expect(page.get_by_test_id("confirm-blocked")).to_have_text(
        f"Resolve the conflict first (Edit its placement, or Drop it): {again.name}.")
    expect(confirm).to_have_accessible_description(re.compile("Resolve the conflict first"))
    for width, height in ((390, 844), (1366, 900)):
        page.set_viewport_size({"width": width, "height": height})
        for row in (conflict, plan.locator("tr[data-outcome=new]")):
            assert _one_line(row), (width, row.inner_text())
        conflict.scroll_into_view_if_needed()
        _shoot(page, f"console-upload-conflict-{width}")
    assert not (found := _axe_violations(page)), "\n".join(found)

    conflict.get_by_role("button", name=f"Edit the placement of {again.name}").click()
    form = page.get_by_test_id("placement-form")
    form.get_by_label("Number").fill("2")
    form.get_by_role("button", name="Save placement").click()
    expect(plan.locator("tr", has_text=again.name)).to_have_attribute("data-outcome", "new")
    expect(page.get_by_test_id("confirm-blocked")).to_have_text("")
    expect(confirm).to_be_enabled()
    confirm.click()
    expect(page.get_by_test_id("upload-status")).to_contain_text("queued: Upload of 2 files")
    _open(page, base_url + ADMIN_JOBS)
    job = page.get_by_test_id("jobs").locator("tr[data-status]", has_text="Upload of 2 files").first
    expect(job).to_have_attribute("data-status", "done", timeout=120_000)
    expect(job).to_contain_text("2 imported, 0 unchanged, 0 failed")
