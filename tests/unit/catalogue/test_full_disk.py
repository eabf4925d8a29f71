"""A full disk during an import or a publish, for real: the media store, the
database or the published files on a small tmpfs the test mounts (the tests
run as root, as CI does), filled until what is left cannot hold the next
chapter. The real CLI must say in English what ran out, exit non-zero, stop
there rather than fail every file after, leave nothing half-written (no
orphan media, no half-imported chapter, no partial or temporary published
file), and once space is freed the same command completes."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from manga_app.core.crypto import decrypt_text
from manga_app.core.db import make_engine

from .builders import write_cbz
from .checks import assert_no_orphan_media, chapter_rows
from .test_cli import PROJECT_ROOT, SETTINGS_VARS, _noise_jpeg

PAGES = 4


@contextmanager
def small_filesystem(path: Path, megabytes: int) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(path)], check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "--lazy", str(path)], check=True)


@contextmanager
def filled(mount: Path, leave: int) -> Iterator[None]:
    """All but `leave` bytes of the filesystem taken by one file, removed on exit."""
    filler = mount / "filler"
    stats = os.statvfs(mount)
    with open(filler, "wb") as out:
        os.posix_fallocate(out.fileno(), 0, max(0, stats.f_bavail * stats.f_frsize - leave))
    try:
        yield
    finally:
        filler.unlink()


def _chapters(src: Path, numbers: range) -> None:
    for chapter in numbers:
        write_cbz(src / "満杯" / f"満杯 {chapter}.cbz", {f"{i}.jpg": _noise_jpeg(chapter * 100 + i) for i in range(PAGES)})


def _cli(*args: str, data: Path) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARS}
    env.update(DATA_DIR=str(data), PYTHONPATH=str(PROJECT_ROOT))
    return subprocess.run([sys.executable, "-m", "manga_app.catalogue", *args], cwd=data.parent, env=env,
                          capture_output=True, text=True, timeout=300)


def _chapters_in(url: str, media: Path) -> list[tuple[str, int, int]]:
    engine = make_engine(url)
    try:
        assert_no_orphan_media(engine, media)
        return chapter_rows(engine)
    finally:
        engine.dispose()


def test_a_full_media_store_stops_the_import_with_a_clear_error_and_the_next_run_completes(tmp_path: Path) -> None:
    src, url = tmp_path / "src", f"sqlite:///{tmp_path / 'a.db'}"
    with small_filesystem(tmp_path / "media", 48) as media:
        _chapters(src, range(1, 2))
        first = _cli("import", str(src), "--db", url, "--media", str(media), "--no-publish", data=tmp_path / "data")
        assert first.returncode == 0, first.stdout + first.stderr
        _chapters(src, range(2, 5))
        with filled(media, leave=1024 * 1024):
            full = _cli("import", str(src), "--db", url, "--media", str(media), "--no-publish", data=tmp_path / "data")
            said = full.stdout + full.stderr
            assert full.returncode == 1, said
            assert f"the media store {media} is full" in said, said
            assert "No space left on device" in said
            assert "free space, then run the same import again" in said
            assert "Traceback" not in said
            # It stopped at the first chapter that did not fit: the others were not tried.
            assert said.count("満杯 2.cbz") >= 1 and "満杯 3.cbz" not in said and "満杯 4.cbz" not in said, said
            assert _chapters_in(url, media) == [("満杯", 100, PAGES)]
        again = _cli("import", str(src), "--db", url, "--media", str(media), "--no-publish", data=tmp_path / "data")
        assert again.returncode == 0, again.stdout + again.stderr
        assert _chapters_in(url, media) == [("満杯", n * 100, PAGES) for n in range(1, 5)]


def test_a_full_disk_under_the_database_stops_the_import_with_a_clear_error_and_the_next_run_completes(tmp_path: Path) -> None:
    src, media = tmp_path / "src", tmp_path / "media"
    with small_filesystem(tmp_path / "db", 8) as folder:
        url = f"sqlite:///{folder / 'a.db'}"
        _chapters(src, range(1, 2))
        first = _cli("import", str(src), "--db", url, "--media", str(media), "--no-publish", data=tmp_path / "data")
        assert first.returncode == 0, first.stdout + first.stderr
        _chapters(src, range(2, 5))
        with filled(folder, leave=0):
            full = _cli("import", str(src), "--db", url, "--media", str(media), "--no-publish", data=tmp_path / "data")
            said = full.stdout + full.stderr
            assert full.returncode == 1, said
            assert f"the disk holding the database {url} is full" in said, said
            assert "free space, then run the same import again" in said
            assert "INSERT INTO" not in said and "Traceback" not in said, said
            assert "満杯 3.cbz" not in said and "満杯 4.cbz" not in said, said
        assert _chapters_in(url, media) == [("満杯", 100, PAGES)]
        again = _cli("import", str(src), "--db", url, "--media", str(media), "--no-publish", data=tmp_path / "data")
        assert again.returncode == 0, again.stdout + again.stderr
        assert _chapters_in(url, media) == [("満杯", n * 100, PAGES) for n in range(1, 5)]


def _published(out: Path, key: str) -> dict[str, object]:
    """Every published file, parsed and manifests decrypted (raises on a partial one); no temporary file may be left."""
    assert not [path.name for path in out.rglob(".tmp-*")]
    found = {}
    for path in sorted(out.rglob("*.json*")):
        if path.is_file() and not path.name.startswith("."):
            raw = path.read_bytes()
            document = json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)
            if "manifests" in path.parts and path.suffix == ".json":
                document = json.loads(decrypt_text(document["data"], key, document["iv"]))
            found[str(path.relative_to(out))] = document
    return found


def test_a_full_disk_under_the_published_files_fails_the_publish_cleanly_and_the_next_one_completes(tmp_path: Path) -> None:
    src, url, data = tmp_path / "src", f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "data"
    _chapters(src, range(1, 4))
    imported = _cli("import", str(src), "--db", url, "--no-publish", data=data)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    reference = _cli("publish", "--db", url, "--out", str(tmp_path / "reference"), data=data)
    assert reference.returncode == 0, reference.stdout + reference.stderr
    key = (data / "content_key").read_text().strip()
    with small_filesystem(tmp_path / "published", 4) as out:
        with filled(out, leave=4096):
            full = _cli("publish", "--db", url, "--out", str(out), data=data)
            said = full.stdout + full.stderr
            assert full.returncode == 1, said
            assert f"cannot write the published catalogue into {out}" in said and "No space left on device" in said, said
            assert "Traceback" not in said
            _published(out, key)
        again = _cli("publish", "--db", url, "--out", str(out), data=data)
        assert again.returncode == 0, again.stdout + again.stderr
        assert _published(out, key) == _published(tmp_path / "reference", key)
