"""`python -m manga_app backup DIR` / `restore DIR`, run as the operator runs
them (subprocesses), on real SQLite files and a real PostgreSQL server: what is
restored into a fresh data directory is the same catalogue, accounts and
progress, and the site's published files decrypt with the restored key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from manga_app.accounts.models import Follow, ReadingProgress, UserAccount
from manga_app.core.crypto import decrypt_text
from tests.postgres import scratch_database
from tests.unit.catalogue.builders import distinct_pages, write_cbz

ROOT = Path(__file__).resolve().parents[3]
TABLES = ("series", "chapter", "page", "user_account", "follow", "reading_progress")


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False)


def site_env(data: Path, url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("CONTENT_KEY", "MEDIA_BASE_URL")}
    return {**env, "DATA_DIR": str(data), "REFLEX_DB_URL": url}


def rows(url: str) -> dict[str, list[tuple]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return {table: sorted(tuple(map(str, row)) for row in connection.execute(sa.text(f"SELECT * FROM {table}")))
                    for table in TABLES}
    finally:
        engine.dispose()


def library(tmp_path: Path) -> Path:
    source = tmp_path / "comics"
    for number in (1, 2):
        write_cbz(source / "保存テスト" / f"保存テスト 第{number}話.cbz",
                  {f"{i}.png": data for i, data in enumerate(distinct_pages(3, seed=number))})
    return source


def site_with_readers(tmp_path: Path, url: str) -> dict[str, str]:
    env = site_env(tmp_path / "live", url)
    done = run(env, "-m", "manga_app.catalogue", "import", str(library(tmp_path)))
    assert done.returncode == 0, done.stderr
    engine = sa.create_engine(url)
    with Session(engine) as session:
        session.add(UserAccount(uid="reader-1", email="a@example.com"))
        session.flush()
        session.add(Follow(uid="reader-1", series_slug="hozontesuto"))
        session.add(ReadingProgress(uid="reader-1", series_slug="hozontesuto", chapter_hundredths=200, page=2))
        session.commit()
    engine.dispose()
    return env


@pytest.fixture(params=["sqlite", "postgresql"])
def urls(request, tmp_path: Path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'live.db'}", f"sqlite:///{tmp_path / 'restored' / 'site.db'}"
        return
    with scratch_database("backup_live", migrated=False) as live, scratch_database("backup_restored", migrated=False) as restored:
        yield live, restored


def test_a_restored_site_has_the_same_catalogue_accounts_progress_and_published_files(tmp_path: Path, urls) -> None:
    live_url, restored_url = urls
    live = site_with_readers(tmp_path, live_url)
    done = run(live, "-m", "manga_app", "backup", str(tmp_path / "backup"))
    assert done.returncode == 0, done.stderr
    assert "Backed up" in done.stdout
    restored = site_env(tmp_path / "restored", restored_url)
    done = run(restored, "-m", "manga_app", "restore", str(tmp_path / "backup"))
    assert done.returncode == 0, done.stderr
    assert rows(restored_url) == rows(live_url)
    live_data, restored_data = tmp_path / "live", tmp_path / "restored"
    assert (restored_data / "content_key").read_bytes() == (live_data / "content_key").read_bytes()
    media = sorted(path.relative_to(live_data / "media") for path in (live_data / "media").rglob("*") if path.is_file())
    assert media and media == sorted(p.relative_to(restored_data / "media") for p in (restored_data / "media").rglob("*") if p.is_file())
    # The restored site's published chapter decrypts with its key to the same pages.
    key = (restored_data / "content_key").read_text().strip()
    manifests = sorted((restored_data / "published").rglob("manifests/*/*.json"))
    assert manifests
    for path in manifests:
        twin = live_data / path.relative_to(restored_data)
        assert pages(path, key) == pages(twin, key) and pages(path, key)


def pages(manifest: Path, key: str) -> list:
    document = json.loads(manifest.read_text())
    return json.loads(decrypt_text(document["data"], key, document["iv"]))


def test_restore_refuses_a_site_that_already_has_data_and_changes_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    live = site_with_readers(tmp_path, url)
    assert run(live, "-m", "manga_app", "backup", str(tmp_path / "backup")).returncode == 0
    before = rows(url)
    done = run(live, "-m", "manga_app", "restore", str(tmp_path / "backup"))
    assert done.returncode == 2
    assert "already has tables" in done.stderr
    assert rows(url) == before


def test_a_backup_never_overwrites_and_a_failed_one_leaves_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    live = site_with_readers(tmp_path, url)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    done = run(live, "-m", "manga_app", "backup", str(tmp_path / "taken"))
    assert done.returncode == 2 and "not empty" in done.stderr
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"
    # A page original the database names is gone from the media store.
    original = next(path for path in (tmp_path / "live" / "media").rglob("*.png"))
    original.unlink()
    done = run(live, "-m", "manga_app", "backup", str(tmp_path / "broken"))
    assert done.returncode == 1
    assert "media files the database names are not in" in done.stderr
    assert sorted(path.name for path in tmp_path.iterdir() if "broken" in path.name) == []


def test_a_backup_taken_while_readers_write_is_one_consistent_snapshot(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    live = site_with_readers(tmp_path, url)
    stop = threading.Event()

    def reader_writes() -> None:
        engine = sa.create_engine(url)
        page = 0
        while not stop.is_set():
            page += 1
            with engine.begin() as connection:
                connection.execute(sa.text("UPDATE reading_progress SET page = :page"), {"page": page})
                connection.execute(sa.text("UPDATE follow SET series_slug = :slug"), {"slug": f"s{page}"})
        engine.dispose()

    writer = threading.Thread(target=reader_writes)
    writer.start()
    try:
        done = run(live, "-m", "manga_app", "backup", str(tmp_path / "backup"))
    finally:
        stop.set()
        writer.join()
    assert done.returncode == 0, done.stderr
    import sqlite3

    with closing(sqlite3.connect(tmp_path / "backup" / "database.sqlite3")) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        page = copy.execute("SELECT page FROM reading_progress").fetchone()[0]
        slug = copy.execute("SELECT series_slug FROM follow").fetchone()[0]
    # Both rows come from the same transaction: never one write without the other.
    assert slug in ("hozontesuto", f"s{page}") and (slug == "hozontesuto") == (page == 2)


def test_files_being_written_are_not_backed_up(tmp_path: Path) -> None:
    """A page or a published file half-written when the backup passes (an
    import or a publish under way) stays out of it: it is never whole."""
    url = f"sqlite:///{tmp_path / 'live.db'}"
    live = site_with_readers(tmp_path, url)
    (tmp_path / "live" / "media" / ".tmp-page-being-written").write_bytes(b"\x89PNG half")
    next((tmp_path / "live" / "published" / "manifests").iterdir()).joinpath(".tmp-abc.json").write_text("{")
    done = run(live, "-m", "manga_app", "backup", str(tmp_path / "backup"))
    assert done.returncode == 0, done.stderr
    assert sorted(path.name for path in (tmp_path / "backup").rglob(".tmp-*")) == []
    assert list((tmp_path / "backup" / "published").rglob("*.json"))
