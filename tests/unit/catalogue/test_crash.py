"""After `kill -9` of the importer: its workers die with it, and the next import sweeps what it left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from manga_app.core.db import make_engine

from .builders import image_bytes, write_cbz
from .checks import assert_no_orphan_media, chapter_rows, media_keys_in_db, media_keys_on_disk
from .test_cli import PROJECT_ROOT, SETTINGS_VARS, _chapter_count, _noise_jpeg

WORKER_GRACE_SECONDS = 5


def _descendants(pid: int) -> set[int]:
    """Every process below `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _import(tmp_path: Path, source: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    env.update(DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(PROJECT_ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "manga_app.catalogue", "import", str(source),
         "--db", f"sqlite:///{tmp_path / 'a.db'}", "--no-publish"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_kill_9_leaves_no_worker_running_and_the_next_import_sweeps_its_media(tmp_path: Path):
    # Given an import big enough to be killed halfway, with worker processes
    for chapter in range(1, 41):
        pages = {f"{i}.jpg": image_bytes((chapter, i * 30, 90), size=(1400, 2000), fmt="JPEG")
                 for i in range(6)}  # fmt: skip
        if chapter <= 8:
            pages["0.jpg"] = _noise_jpeg(chapter)
        write_cbz(tmp_path / "src" / "S" / f"S {chapter}.cbz", pages)
    process = _import(tmp_path, tmp_path / "src")
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while not _chapter_count(tmp_path / "a.db"):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no chapter was ever committed"
        workers |= _descendants(process.pid)
        time.sleep(0.05)
    workers |= _descendants(process.pid)
    assert workers, "the import started no worker process"
    # When the importer is killed outright
    process.kill()
    process.wait()
    # Then within a few seconds none of its workers is still running
    deadline = time.monotonic() + WORKER_GRACE_SECONDS
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in workers if _alive(pid)] == []
    # And the next import, of something else entirely, removes the media nobody uses
    engine = make_engine(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        media = tmp_path / "data" / "media"
        assert media_keys_on_disk(media) - media_keys_in_db(engine), "nothing was left over"
        write_cbz(tmp_path / "other" / "T" / "T 1.cbz", {"1.png": image_bytes()})
        other = _import(tmp_path, tmp_path / "other")
        out, err = other.communicate(timeout=120)
        assert other.returncode == 0, out + err
        assert ("T", 100, 1) in chapter_rows(engine)
        assert_no_orphan_media(engine, media)
    finally:
        engine.dispose()


def test_media_of_an_import_still_running_is_not_swept(tmp_path: Path, engine, media):
    import fcntl

    from manga_app.catalogue.importer import import_source
    from manga_app.catalogue.sweep import LOCK_NAME

    in_flight = media.root / "ab" / ("ab" + "0" * 62 + "-w1200.jpg")
    write_cbz(tmp_path / "src" / "T" / "T 1.cbz", {"1.png": image_bytes()})
    media.root.mkdir(parents=True)
    with (media.root / LOCK_NAME).open("a") as other:
        fcntl.flock(other, fcntl.LOCK_SH)  # another import is running, and writing
        in_flight.parent.mkdir(parents=True)
        in_flight.write_bytes(b"written by another import, not committed yet")
        assert import_source(tmp_path / "src", engine=engine, media=media).ok
        assert in_flight.exists()
    # That import died without a word: the next one, alone, removes what it left
    write_cbz(tmp_path / "src" / "T" / "T 2.cbz", {"1.png": image_bytes((1, 2, 3))})
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert not in_flight.exists()
    assert any("left by an import that did not finish" in note for _, note in report.notes)


def test_pages_imported_before_reader_jpegs_get_them_on_the_next_import(
    tmp_path: Path, engine, media
):
    from manga_app.catalogue.importer import import_source
    from manga_app.catalogue.media import reader_path
    from manga_app.catalogue.sweep import UPGRADED_NAME

    # Given a chapter imported when reader derivatives were WebP (no JPEG, no marker)
    write_cbz(tmp_path / "src" / "T" / "T 1.cbz", {"1.png": image_bytes(size=(300, 450))})
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    [key] = media_keys_in_db(engine)
    jpeg = media.path(reader_path(key, 300, 450))
    jpeg.rename(jpeg.with_suffix(".webp"))
    (media.root / UPGRADED_NAME).unlink()
    # When anything is imported again (here: nothing new)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    # Then the page has the reader JPEG its published manifest names
    assert jpeg.exists()
