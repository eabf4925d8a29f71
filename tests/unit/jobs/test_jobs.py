"""Import jobs end to end below the web layer: the real huey consumer
(`python -m manga_app.jobs`, SqliteHuey in DATA_DIR) runs jobs the console's
store submits; a job reports its files, can be cancelled, and survives its
consumer being stopped or killed: it resumes, the database ends as one
clean import would leave it, and no media is orphaned."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlmodel import Session

from manga_app.catalogue.importer import import_source
from manga_app.catalogue.media import MediaStore
from manga_app.core.db import make_engine, migrate
from manga_app.jobs import store
from manga_app.jobs.models import ImportJob
from tests.unit.catalogue.builders import image_bytes, write_cbz
from tests.unit.catalogue.checks import assert_no_orphan_media, chapter_rows
from tests.unit.catalogue.test_cli import PROJECT_ROOT, SETTINGS_VARS, _noise_jpeg


class Actor:
    uid, email = "op-uid", "op@example.com"


@pytest.fixture
def redis_url(tmp_path: Path, monkeypatch):
    """A Redis of this test's own (the site scaled out): the queue is there, not in DATA_DIR."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(["redis-server", "--port", str(port), "--save", "", "--dir", str(tmp_path)],
                              stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True).stdout.strip() != "PONG":
        assert time.monotonic() < deadline and server.poll() is None, "redis-server did not start"
        time.sleep(0.1)
    monkeypatch.setenv("REFLEX_REDIS_URL", f"redis://127.0.0.1:{port}/0")
    yield f"redis://127.0.0.1:{port}/0"
    server.terminate()
    server.wait()


@pytest.fixture
def site(tmp_path: Path, configure, monkeypatch, request):
    """A data folder and database of its own, as the consumer's environment sees them
    (and REFLEX_REDIS_URL when the test set it)."""
    if "redis_url" not in request.fixturenames:
        monkeypatch.delenv("REFLEX_REDIS_URL", raising=False)
    data, url = tmp_path / "data", f"sqlite:///{tmp_path / 'site.db'}"
    configure(DATA_DIR=data, REFLEX_DB_URL=url)
    migrate(url)
    engine = make_engine(url)
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    env.update(DATA_DIR=str(data), REFLEX_DB_URL=url, PYTHONPATH=str(PROJECT_ROOT))
    consumers: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        log = open(tmp_path / f"consumer-{len(consumers)}.log", "w")
        consumers.append(subprocess.Popen([sys.executable, "-m", "manga_app.jobs"], cwd=tmp_path, env=env,
                                          stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        return consumers[-1]

    yield engine, data, start
    for process in consumers:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    engine.dispose()


def _job(engine, job_id: int) -> ImportJob:
    with Session(engine) as session:
        return session.get(ImportJob, job_id)


def _wait(engine, job_id: int, check, timeout: float = 240) -> ImportJob:
    deadline = time.monotonic() + timeout
    while not check(job := _job(engine, job_id)):
        assert time.monotonic() < deadline, f"job {job_id} never got there: {job}"
        time.sleep(0.1)
    return job


def _submit(engine, source: Path) -> int:
    with Session(engine) as session:
        return store.submit(session, source, "test import", Actor()).id


def _big_source(root: Path, chapters: int = 24) -> Path:
    """Enough work to be stopped halfway: detailed pages, several per chapter."""
    for chapter in range(1, chapters + 1):
        pages = {f"{i}.jpg": _noise_jpeg(chapter * 10 + i, size=(600, 850)) for i in range(4)}
        write_cbz(root / "S" / f"S {chapter}.cbz", pages)
    return root


def test_a_job_imports_reports_each_file_and_the_series_is_published(site, tmp_path: Path):
    engine, data, start = site
    source = tmp_path / "src"
    write_cbz(source / "灯台" / "灯台 1.cbz", {"1.png": image_bytes(), "2.png": image_bytes((1, 2, 3))})
    write_cbz(source / "灯台" / "灯台 2.cbz", {"1.png": image_bytes((9, 9, 9))})
    (source / "灯台" / "灯台 3.cbz").write_bytes(b"not a zip at all")
    (source / "notes.txt").write_text("hello")
    job_id = _submit(engine, source)
    start()
    job = _wait(engine, job_id, lambda job: job.status in ("done", "failed"))
    assert job.status == "done", job.summary
    assert job.summary.startswith("2 imported, 0 unchanged, 1 failed") and "Published." in job.summary
    assert job.chapters_total == job.chapters_done == 3 and job.share == 1.0 and job.pages_done == 3
    with Session(engine) as session:
        counts, files = store.files_of(session, job_id)
    assert counts == {"imported": 2, "failed": 1, "note": 1}
    assert files[0].path == "灯台/灯台 3.cbz" and files[0].outcome == "failed" and files[0].reason
    assert [row[:2] for row in chapter_rows(engine)] == [("灯台", 100), ("灯台", 200)]
    assert (data / "published" / "mangas_1.json").read_text().count("灯台") >= 1


def test_on_a_scaled_out_site_the_queue_is_the_sites_redis(redis_url, site, tmp_path: Path):
    engine, data, start = site
    write_cbz(tmp_path / "src" / "灯台" / "灯台 1.cbz", {"1.png": image_bytes()})
    job_id = _submit(engine, tmp_path / "src")
    assert not (data / "jobs.sqlite3").exists()
    keys = subprocess.run(["redis-cli", "-u", redis_url, "keys", "*"], capture_output=True, text=True).stdout
    assert "mangajobs" in keys  # the message waits in Redis for a consumer
    start()
    assert _wait(engine, job_id, lambda job: job.status in ("done", "failed")).status == "done"
    assert not (data / "jobs.sqlite3").exists()


def test_a_killed_consumer_resumes_its_job_and_the_result_is_one_clean_import(site, tmp_path: Path):
    engine, data, start = site
    source = _big_source(tmp_path / "src")
    job_id = _submit(engine, source)
    first = start()
    _wait(engine, job_id, lambda job: job.chapters_done >= 2)
    os.killpg(first.pid, signal.SIGKILL)  # the server's machine loses power, say
    first.wait()
    assert _job(engine, job_id).status == "running"
    start()
    job = _wait(engine, job_id, lambda job: job.status not in ("queued", "running"))
    assert job.status == "done", job.summary
    assert job.attempts == 2
    with Session(engine) as session:
        counts, _ = store.files_of(session, job_id)
    assert sum(counts.values()) == 24 and counts.get("unchanged", 0) >= 2  # each file once, as the resumed run found it
    clean = make_engine(f"sqlite:///{tmp_path / 'clean.db'}")
    migrate(str(clean.url))
    import_source(source, engine=clean, media=MediaStore(tmp_path / "clean-media"), workers=1)
    assert chapter_rows(engine) == chapter_rows(clean) and len(chapter_rows(engine)) == 24
    assert_no_orphan_media(engine, data / "media")
    clean.dispose()


def test_a_stopped_consumer_puts_its_job_back_and_the_next_one_finishes_it(site, tmp_path: Path):
    engine, data, start = site
    job_id = _submit(engine, _big_source(tmp_path / "src"))
    first = start()
    _wait(engine, job_id, lambda job: job.chapters_done >= 1)
    first.send_signal(signal.SIGTERM)  # `make run` stopped with Ctrl-C, or a deploy
    assert first.wait(timeout=60) == 0
    job = _job(engine, job_id)
    assert job.status == "queued" and "resumes when the server starts again" in job.summary
    assert_no_orphan_media(engine, data / "media")
    start()
    assert _wait(engine, job_id, lambda job: job.status not in ("queued", "running")).status == "done"
    assert len(chapter_rows(engine)) == 24


def test_a_cancelled_job_stops_keeps_whole_chapters_and_leaves_no_orphan(site, tmp_path: Path):
    engine, data, start = site
    job_id = _submit(engine, _big_source(tmp_path / "src"))
    start()
    _wait(engine, job_id, lambda job: job.chapters_done >= 1)
    with Session(engine) as session:
        assert "stops after the page it is on" in store.cancel(session, job_id, Actor())
    job = _wait(engine, job_id, lambda job: job.status != "running", timeout=60)
    assert job.status == "cancelled" and "complete and kept" in job.summary
    rows = chapter_rows(engine)
    assert 1 <= len(rows) < 24 and all(pages == 4 for _, _, pages in rows)
    assert_no_orphan_media(engine, data / "media")
    with Session(engine) as session, pytest.raises(store.Refused, match="already finished"):
        store.cancel(session, job_id, Actor())


@pytest.mark.parametrize("text, reason", [
    ("", "full path on the server"),
    ("comics", "is not a full path"),
    ("/no/such/folder/here", "is not a folder on the server"),
    ("{file}", "is a file, not a folder"),
    ("{data}", "holds the site's own data"),
])
def test_a_library_folder_that_cannot_be_one_is_refused_with_the_reason(session, tmp_path, text, reason):
    (tmp_path / "a.cbz").write_bytes(b"x")
    (tmp_path / "data").mkdir()
    text = text.format(file=tmp_path / "a.cbz", data=tmp_path / "data" / "media" / "..")
    with pytest.raises(store.Refused, match=reason):
        store.add_library(session, text, tmp_path / "data", Actor())
    assert store.libraries(session) == []


def test_a_job_whose_consumer_on_another_machine_went_silent_is_resumed_and_a_live_one_is_left(engine):
    from datetime import timedelta

    from manga_app.catalogue.models import utc_now
    from manga_app.jobs.recovery import recover

    with Session(engine) as session:
        silent = ImportJob(source="/srv/a", status="running", worker="gone-host:12", attempts=1,
                           heartbeat_at=utc_now() - timedelta(minutes=10))
        live = ImportJob(source="/srv/b", status="running", worker="busy-host:34", attempts=1, heartbeat_at=utc_now())
        session.add_all([silent, live])
        session.commit()
        ids = silent.id, live.id
    assert recover(engine, None) == [ids[0]]
    assert _job(engine, ids[0]).status == "queued" and "resumed" in _job(engine, ids[0]).summary
    assert _job(engine, ids[1]).status == "running"


def test_after_a_job_brings_wide_pages_their_high_dpi_copies_are_made_and_published(site, tmp_path: Path):
    from tests.unit.catalogue.test_reencode import _manifest, _wide_page

    engine, data, start = site
    source = tmp_path / "src"
    write_cbz(source / "S" / "S 1.cbz", {"1.jpg": _wide_page(1600, 1), "2.jpg": _wide_page(800, 2)})
    job_id = _submit(engine, source)
    start()
    assert _wait(engine, job_id, lambda job: job.status in ("done", "failed")).status == "done"
    # The import published the pages at once, then a reencode in the background adds the wide one's copy
    deadline = time.monotonic() + 240
    while "hidpi_avif" not in _manifest(tmp_path)[0]:
        assert time.monotonic() < deadline, (data / "reencode.log").read_text(errors="replace")
        time.sleep(0.2)
    pages = _manifest(tmp_path)
    assert pages[0]["hidpi_avif"].endswith("-w1600.avif") and "hidpi_avif" not in pages[1]
    assert (data / "media" / pages[0]["hidpi_avif"].removeprefix("/media/")).is_file()
    assert "Re-encoded 1 images" in (data / "reencode.log").read_text()
