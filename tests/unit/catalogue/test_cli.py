"""The operator's command line: the server's settings, clear refusals, exit statuses.

Every test runs in its own folder with a clean environment, so neither the
project's data/ nor a developer's .env is read or written.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image
from sqlmodel import Session, select

from manga_app.catalogue.cli import main
from manga_app.core.db import default_db_url, make_engine
from manga_app.catalogue.models import Series
from manga_app.core.config import Settings, content_key
from manga_app.core.crypto import decrypt_text

from .builders import FIXTURES, distinct_pages, image_bytes, write_cbz
from .checks import assert_no_orphan_media, chapter_rows

PROJECT_ROOT = Path(__file__).resolve().parents[3]
SETTINGS_VARS = ("DATA_DIR", "CONTENT_KEY", "MEDIA_BASE_URL", "REFLEX_DB_URL", "GA_MEASUREMENT_ID")


def _cbz(path: Path, pages: int = 3, seed: int = 0) -> Path:
    return write_cbz(path, {f"{i + 1}.png": p for i, p in enumerate(distinct_pages(pages, seed=seed))})


def _manifest_pages(published: Path, slug: str, number: str, key: str) -> list[dict]:
    manifest = json.loads((published / "manifests" / slug / f"{number}.json").read_text())
    return json.loads(decrypt_text(manifest["data"], key, manifest["iv"]))


def test_settings_in_dot_env_are_the_ones_the_server_uses(clean_settings: Path):
    # Given DATA_DIR, CONTENT_KEY and MEDIA_BASE_URL only in .env, as an operator sets them
    data = clean_settings / "site-data"
    key = "5f" + "a1" * 31
    (clean_settings / ".env").write_text(
        f"DATA_DIR={data}\nCONTENT_KEY={key}\nMEDIA_BASE_URL=https://cdn.example/media\n"
    )
    _cbz(clean_settings / "comics" / "Series" / "Series 1.cbz")
    db_url = f"sqlite:///{clean_settings / 'site.db'}"
    # When the CLI imports (and publishes) with no options but the database
    assert main(["import", str(clean_settings / "comics"), "--db", db_url]) == 0
    # Then media and published files are where the server looks, and its key decrypts them
    server = Settings()
    assert server.data_dir == data.resolve()
    pages = _manifest_pages(server.published_dir, "series", "1", content_key(server))
    assert len(pages) == 3
    assert all(page["url"].startswith("https://cdn.example/media/") for page in pages)
    assert (server.media_dir / pages[0]["url"].removeprefix("https://cdn.example/media/")).is_file()
    [item] = json.loads((server.published_dir / "mangas_1.json").read_text())["list"]
    assert item["cover"].startswith("https://cdn.example/media/")
    assert not (data / "content_key").exists()  # CONTENT_KEY was used, no development key made


def test_media_base_url_moves_covers_and_page_urls_to_a_cdn(clean_settings: Path, monkeypatch):
    monkeypatch.setenv("DATA_DIR", str(clean_settings / "data"))
    monkeypatch.setenv("MEDIA_BASE_URL", "https://cdn.example/media")
    _cbz(clean_settings / "comics" / "Series" / "Series 1.cbz")
    assert main(["import", str(clean_settings / "comics"), "--db", f"sqlite:///{clean_settings / 'a.db'}"]) == 0
    published = clean_settings / "data" / "published"
    [item] = json.loads((published / "mangas_1.json").read_text())["list"]
    assert item["cover"].startswith("https://cdn.example/media/")
    assert item["cover"].endswith("-cover320.webp")
    key = (clean_settings / "data" / "content_key").read_text().strip()  # the development key, made once
    for page in _manifest_pages(published, "series", "1", key):
        assert page["url"].startswith("https://cdn.example/media/")
        assert page["saver_url"].startswith("https://cdn.example/media/")


def test_the_database_is_the_one_the_server_opens(clean_settings: Path, monkeypatch):
    url = f"sqlite:///{clean_settings / 'shared.db'}"
    monkeypatch.setenv("REFLEX_DB_URL", url)
    monkeypatch.setenv("DATA_DIR", str(clean_settings / "data"))
    _cbz(clean_settings / "comics" / "Series" / "Series 1.cbz")
    assert main(["import", str(clean_settings / "comics")]) == 0
    engine = make_engine(default_db_url())  # what the web layer's shared engine opens
    try:
        assert chapter_rows(engine) == [("Series", 100, 3)]
    finally:
        engine.dispose()


@pytest.mark.parametrize("source", ["", "   "])
def test_an_empty_source_is_refused_instead_of_importing_the_current_folder(
    clean_settings: Path, monkeypatch, capsys, source: str
):
    monkeypatch.setenv("DATA_DIR", str(clean_settings / "data"))
    _cbz(clean_settings / "Series 1.cbz")  # would be imported if "" meant "."
    assert main(["import", source, "--db", f"sqlite:///{clean_settings / 'a.db'}"]) == 2
    assert "no source given" in capsys.readouterr().err
    assert not (clean_settings / "a.db").exists() and not (clean_settings / "data").exists()


def test_importing_the_data_folder_never_reads_the_media_store_or_published_files(
    clean_settings: Path, monkeypatch, capsys
):
    # Given a data folder after an import (media store and published files in it)
    data = clean_settings / "data"
    monkeypatch.setenv("DATA_DIR", str(data))
    db = f"sqlite:///{clean_settings / 'a.db'}"
    _cbz(data / "demo" / "Series" / "Series 1.cbz")
    assert main(["import", str(data / "demo"), "--db", db]) == 0
    assert (data / "media").is_dir() and (data / "published").is_dir()
    capsys.readouterr()
    # When the whole data folder is imported, then only the demo archive is seen (and skipped)
    assert main(["import", str(data), "--db", db]) == 0
    assert "Imported: 0, skipped (unchanged): 1, failed: 0" in capsys.readouterr().out
    # And a source inside the media store is refused
    assert main(["import", str(data / "media"), "--db", db]) == 2
    assert "inside" in capsys.readouterr().err


def test_the_cli_reports_each_failure_and_exits_non_zero(clean_settings: Path, monkeypatch, capsys):
    monkeypatch.setenv("DATA_DIR", str(clean_settings / "data"))
    db = f"sqlite:///{clean_settings / 'a.db'}"
    src = clean_settings / "src" / "Series"
    _cbz(src / "Series 1.cbz")
    shutil.copy(FIXTURES / "archives" / "rar4-encrypted.rar", src / "Series 2.cbr")
    assert main(["import", str(clean_settings / "src"), "--db", db]) == 1
    out = capsys.readouterr().out
    assert f"FAILED  {(src / 'Series 2.cbr').resolve()}: the RAR archive is encrypted" in out
    assert "Imported: 1, skipped (unchanged): 0, failed: 1" in out
    # A clean re-run of only the good file succeeds with status 0
    (src / "Series 2.cbr").unlink()
    assert main(["import", str(clean_settings / "src"), "--db", db]) == 0
    assert "skipped (unchanged): 1, failed: 0" in capsys.readouterr().out


def test_a_missing_source_is_a_usage_error(clean_settings: Path, capsys):
    assert main(["import", str(clean_settings / "nope"), "--db", f"sqlite:///{clean_settings / 'a.db'}"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_a_placeholder_key_is_refused_before_anything_is_imported(clean_settings: Path, monkeypatch, capsys):
    monkeypatch.setenv("DATA_DIR", str(clean_settings / "data"))
    monkeypatch.setenv("CONTENT_KEY", "changeme")
    _cbz(clean_settings / "src" / "Series" / "Series 1.cbz")
    db = f"sqlite:///{clean_settings / 'a.db'}"
    assert main(["import", str(clean_settings / "src"), "--db", db]) == 2
    assert "CONTENT_KEY: content key is a placeholder" in capsys.readouterr().err
    assert not (clean_settings / "data" / "media").exists()
    assert main(["publish", "--db", db]) == 2
    assert not (clean_settings / "data" / "published").exists()
    monkeypatch.setenv("CONTENT_KEY", "ab12" * 16)
    assert main(["import", str(clean_settings / "src"), "--db", db]) == 0
    assert "Published 1 series on 1 pages, 1 chapter manifests" in capsys.readouterr().out


def test_bad_configuration_and_an_unreachable_database_are_clear_errors(
    clean_settings: Path, monkeypatch, capsys
):
    monkeypatch.setenv("GA_MEASUREMENT_ID", "UA-123")
    assert main(["publish", "--db", f"sqlite:///{clean_settings / 'a.db'}"]) == 2
    assert "invalid configuration: GA_MEASUREMENT_ID" in capsys.readouterr().err
    monkeypatch.delenv("GA_MEASUREMENT_ID")
    monkeypatch.setenv("DATA_DIR", str(clean_settings / "data"))
    assert main(["publish", "--db", "postgresql://nobody:secret@127.0.0.1:9/none"]) == 1
    err = capsys.readouterr().err
    assert "cannot open the database postgresql+psycopg://nobody:***@127.0.0.1:9/none" in err
    assert "secret" not in err


def _noise_jpeg(seed: int, size=(700, 1000)) -> bytes:
    """A JPEG of random pixels: large (about 700 KB), like a detailed scanned page."""
    noise = Image.frombytes("RGB", size, random.Random(seed).randbytes(size[0] * size[1] * 3))
    out = io.BytesIO()
    noise.save(out, "JPEG", quality=90)
    return out.getvalue()


@pytest.mark.parametrize("workers", ["one process", "worker processes"])
def test_ctrl_c_keeps_the_finished_chapters_whole_and_exits_130(tmp_path: Path, workers: str):
    # Given a library big enough to be interrupted halfway (with large pages, the
    # importer hands pages to worker processes)
    for chapter in range(1, 41):
        pages = {f"{i}.jpg": image_bytes((chapter, i * 30, 90), size=(1400, 2000), fmt="JPEG")
                 for i in range(6)}
        if workers == "worker processes" and chapter <= 8:
            pages["0.jpg"] = _noise_jpeg(chapter)
        write_cbz(tmp_path / "src" / "S" / f"S {chapter}.cbz", pages)
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    env["DATA_DIR"] = str(tmp_path / "data")
    db = tmp_path / "a.db"
    process = subprocess.Popen(
        [sys.executable, "-m", "manga_app.catalogue", "import", str(tmp_path / "src"),
         "--db", f"sqlite:///{db}"],
        cwd=tmp_path, env={**env, "PYTHONPATH": str(PROJECT_ROOT)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        # As a terminal starts it: with Ctrl-C's default action, even when this test
        # run itself was started in the background (which ignores SIGINT, and Python
        # keeps an ignored SIGINT ignored: no KeyboardInterrupt would ever come).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # When Ctrl-C arrives once the importer says the first chapters are in (its
    # progress line; polling the database missed them in a full test run), to the
    # whole process group as a terminal sends it: the page workers get it too
    lines: list[str] = []
    started = threading.Event()

    def read_progress() -> None:
        for line in process.stderr:
            lines.append(line)
            found = re.match(r"Importing: (\d+)/40 chapters", line)
            if found and int(found[1]) > 0:
                started.set()

    reader = threading.Thread(target=read_progress, daemon=True)
    reader.start()
    assert started.wait(120), "".join(lines) or "no chapter was ever imported"
    os.killpg(process.pid, signal.SIGINT)
    out = process.stdout.read()
    process.wait(timeout=120)
    reader.join(timeout=30)
    err = "".join(lines)
    # Then it stops with 130 and says so; what is in the database is whole, nothing is orphaned
    assert process.returncode == 130, out + err
    assert "Interrupted: the chapters imported so far are complete and kept" in err
    assert "Traceback" not in err
    engine = make_engine(f"sqlite:///{db}")
    try:
        rows = chapter_rows(engine)
        assert 0 < len(rows) < 40 and all(pages == 6 for _, _, pages in rows)
        assert_no_orphan_media(engine, tmp_path / "data" / "media")
        with Session(engine) as session:
            assert session.exec(select(Series.title)).all() == ["S"]
    finally:
        engine.dispose()


def _chapter_count(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            return connection.execute("SELECT count(*) FROM chapter").fetchone()[0]
    except sqlite3.Error:  # not migrated yet, or locked for a moment
        return 0
