"""`kill -9` of the publisher at any point: every published file a reader can
fetch is whole (lists and gzip twins parse, manifests decrypt), and the next
publish completes with exactly what an uninterrupted publish writes, leaving
no temporary file behind. The real CLI, on a synthetic catalogue big enough
for a publish to take a while."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.synthetic import CONTENT_KEY, catalogue_db
from manga_app.catalogue.publish_files import publishing
from manga_app.core.crypto import decrypt_text

from .test_cli import PROJECT_ROOT, SETTINGS_VARS

SERIES = 3000


def _publish(url: str, out: Path, data: Path) -> subprocess.Popen:
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_VARS}
    env.update(REFLEX_DB_URL=url, DATA_DIR=str(data), CONTENT_KEY=CONTENT_KEY)
    return subprocess.Popen([sys.executable, "-m", "manga_app.catalogue", "publish", "--out", str(out)],
                            cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _contents(out: Path) -> dict[str, object]:
    """Every file a reader can fetch, decoded; raises if one is not whole."""
    found: dict[str, object] = {}
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.name.startswith("."):
            continue  # temporary files and the publisher's own records are never served
        name = str(path.relative_to(out))
        raw = path.read_bytes()
        if path.suffix == ".gz":
            found[name] = json.loads(gzip.decompress(raw))
        elif path.suffix == ".json" and "manifests" in path.parts:
            document = json.loads(raw)
            found[name] = json.loads(decrypt_text(document["data"], CONTENT_KEY, document["iv"]))
        elif path.suffix == ".json":
            found[name] = json.loads(raw)
    return found


def test_kill_9_of_a_publish_leaves_every_file_whole_and_the_next_publish_completes(tmp_path: Path) -> None:
    url = catalogue_db(SERIES)
    started = time.monotonic()
    reference = _publish(url, tmp_path / "reference", tmp_path / "data")
    assert reference.wait(timeout=600) == 0
    took = time.monotonic() - started
    expected = _contents(tmp_path / "reference")
    assert len([name for name in expected if "manifests" in name]) >= SERIES

    out = tmp_path / "published"
    for fraction in (0.3, 0.5, 0.7, 0.9):
        process = _publish(url, out, tmp_path / "data")
        time.sleep(took * fraction)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        _contents(out)  # every file there is whole
    assert _publish(url, out, tmp_path / "data").wait(timeout=600) == 0
    assert _contents(out) == expected
    assert not [path.name for path in out.rglob(".tmp-*")]


def test_a_second_publish_waits_for_the_first_and_sweeps_what_a_killed_one_left(tmp_path: Path) -> None:
    url = catalogue_db(SERIES)
    out = tmp_path / "published"
    out.mkdir()
    (out / ".tmp-left-by-a-killed-publish.json").write_text("{")
    with publishing(out):
        waiting = _publish(url, out, tmp_path / "data")
        time.sleep(2)
        released = time.time()
    assert waiting.wait(timeout=600) == 0
    # Everything it wrote, it wrote after the lock was released.
    assert (out / "mangas_1.json").stat().st_mtime > released
    assert not list(out.rglob(".tmp-*"))
