"""`python -m manga_app.catalogue reencode`: a store imported before AVIF gets its
AVIF copies, survives being killed halfway, and goes on where it stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from manga_app.catalogue.media import AVIF_MARKER
from manga_app.core.crypto import decrypt_text

from .builders import write_cbz

PROJECT_ROOT = Path(__file__).resolve().parents[3]
SETTINGS_VARS = ("DATA_DIR", "CONTENT_KEY", "MEDIA_BASE_URL", "REFLEX_DB_URL", "GA_MEASUREMENT_ID")
PAGES = 12


def _noisy_page(seed: int) -> bytes:
    import io

    image = Image.effect_noise((1000, 1500), 60 + seed).convert("RGB")
    image.paste((seed * 9 % 256, 40, 200), (0, 0, 300, 300))  # colour: encoded as RGB, slower
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def _run(tmp_path: Path, *args: str, wait: bool = True):
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    env.update(DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(PROJECT_ROOT))
    command = [sys.executable, "-m", "manga_app.catalogue", *args, "--db", f"sqlite:///{tmp_path / 'a.db'}"]
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    if not wait:
        return process
    out, err = process.communicate(timeout=600)
    return process.returncode, out + err


def _manifest(tmp_path: Path) -> list[dict]:
    data = tmp_path / "data"
    manifest = json.loads((data / "published" / "manifests" / "s" / "1.json").read_text())
    key = (data / "content_key").read_text().strip()
    return json.loads(decrypt_text(manifest["data"], key, manifest["iv"]))


def test_reencode_killed_halfway_goes_on_where_it_stopped(tmp_path: Path):
    # Given a store imported before AVIF: its AVIF copies and marker are not there
    write_cbz(tmp_path / "src" / "S" / "S 1.cbz", {f"{i:02d}.jpg": _noisy_page(i) for i in range(PAGES)})
    code, output = _run(tmp_path, "import", str(tmp_path / "src"))
    assert code == 0, output
    media = tmp_path / "data" / "media"
    for path in media.rglob("*.avif"):
        path.unlink()
    (media / AVIF_MARKER).unlink()
    assert _run(tmp_path, "publish")[0] == 0
    assert "avif" not in _manifest(tmp_path)[0]  # the reader is served JPEG meanwhile

    # When reencode is killed (-9, the whole process group) once some pages are done
    process = _run(tmp_path, "reencode", "--workers", "2", wait=False)
    deadline = time.monotonic() + 300
    while len(list(media.rglob("*-w720.avif"))) < 3:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no page was re-encoded"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    done_before = len(list(media.rglob("*-w720.avif")))
    # Then nothing is published or marked, and readers still get the JPEGs
    assert 0 < done_before < PAGES
    assert not (media / AVIF_MARKER).exists()
    assert "avif" not in _manifest(tmp_path)[0]

    # When it runs again
    code, output = _run(tmp_path, "reencode")
    # Then it does only what was left, with its progress and time left, and publishes the AVIF copies
    assert code == 0, output
    left = int(output.split(" of the store's images lack derivatives")[0].rsplit("\n", 1)[-1])
    assert left <= PAGES - done_before + 2  # the pages in flight when killed are done again
    assert f"reencode: {left}/{left} (100 %)" in output and "s left" in output
    assert (media / AVIF_MARKER).exists()
    assert not [p for p in media.rglob("*") if p.name.startswith(".tmp-")]
    pages = _manifest(tmp_path)
    assert len(pages) == PAGES
    for page in pages:
        for field in ("avif", "saver_avif"):
            with Image.open(media / page[field].removeprefix("/media/")) as image:
                assert image.format == "AVIF"
                image.load()
    # And a third run has nothing to do
    code, output = _run(tmp_path, "reencode", "--no-publish")
    assert code == 0 and "0 of the store's images lack derivatives" in output


def test_an_import_that_defers_avif_serves_fallbacks_until_reencode_adds_them(tmp_path: Path):
    # Given a new store imported with --defer-avif (make run's demo: the site serves sooner)
    write_cbz(tmp_path / "src" / "S" / "S 1.cbz", {f"{i:02d}.jpg": _noisy_page(i) for i in range(3)})
    code, output = _run(tmp_path, "import", "--defer-avif", str(tmp_path / "src"))
    assert code == 0, output
    media = tmp_path / "data" / "media"
    # Then it has every JPEG and WebP copy and cover, and no AVIF: readers get the fallbacks
    assert not list(media.rglob("*.avif")) and not (media / AVIF_MARKER).exists()
    pages = _manifest(tmp_path)
    assert len(pages) == 3 and all("avif" not in page for page in pages)
    for page in pages:
        for field in ("url", "saver_url"):
            with Image.open(media / page[field].removeprefix("/media/")) as image:
                image.load()
    assert len(list(media.rglob("*-cover*.webp"))) == 2

    # When a reencode runs while another holds the store's reencode lock
    import fcntl

    media.mkdir(exist_ok=True)
    with (media / ".reencode.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        code, output = _run(tmp_path, "reencode")
    # Then it leaves the work to that one
    assert code == 0 and "another reencode is running" in output, output
    assert not list(media.rglob("*.avif"))

    # When reencode runs alone, it writes the AVIF copies (pages and covers) and publishes them
    code, output = _run(tmp_path, "reencode")
    assert code == 0, output
    assert (media / AVIF_MARKER).exists()
    assert all(page["avif"].endswith(".avif") for page in _manifest(tmp_path))
    assert len(list(media.rglob("*-cover*.avif"))) == 2


def _wide_page(width: int, seed: int) -> bytes:
    import io

    image = Image.effect_noise((width, width * 3 // 2), 50 + seed).convert("L")
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def test_wide_pages_get_their_high_dpi_copy_from_reencode_not_the_import(tmp_path: Path):
    # Given a new store (AVIF copies made by the import) with two wide pages and a narrow one
    write_cbz(tmp_path / "src" / "S" / "S 1.cbz",
              {"01.jpg": _wide_page(1600, 1), "02.jpg": _wide_page(1000, 2), "03.jpg": _wide_page(2000, 3)})
    code, output = _run(tmp_path, "import", str(tmp_path / "src"))
    assert code == 0, output
    media = tmp_path / "data" / "media"
    # Then the import wrote every reader copy, and no high-DPI one: the manifest names none yet
    assert (media / AVIF_MARKER).exists() and not list(media.rglob("*-w1600.avif"))
    assert all("avif" in page and "hidpi_avif" not in page for page in _manifest(tmp_path))

    # When reencode runs
    code, output = _run(tmp_path, "reencode")
    assert code == 0, output
    # Then the wide pages have a 1,600 px AVIF (the 2,000 px one scaled down), named in the manifest
    pages = _manifest(tmp_path)
    assert [("hidpi_avif" in page) for page in pages] == [True, False, True]
    for page in (pages[0], pages[2]):
        with Image.open(media / page["hidpi_avif"].removeprefix("/media/")) as image:
            assert image.format == "AVIF" and image.size == (1600, 2400)
            image.load()
    assert pages[0]["avif"].endswith("-w1200.avif")  # phones keep the reader width
    # And a second run has nothing to do
    code, output = _run(tmp_path, "reencode", "--no-publish")
    assert code == 0 and "0 of the store's images lack derivatives" in output, output


def test_only_pages_that_can_have_a_high_dpi_copy_are_waited_for(session, engine):
    """What makes the job consumer start a reencode after an import (catalogue.reencode.wide_pages_waiting)."""
    import sqlalchemy as sa
    from sqlmodel import select

    from manga_app.catalogue import reencode
    from manga_app.catalogue.models import Chapter, Page
    from tests.unit.catalogue.test_publisher import _add_series

    _add_series(session, 1)
    chapter = session.exec(select(Chapter)).one()

    def add(index: int, width: int, height: int) -> None:
        session.add(Page(chapter_id=chapter.id, index=index, media_key=f"{index:064x}", ext="jpg",
                         width=width, height=height, bytes=1))
        session.commit()

    add(0, 1000, 1500)  # narrower than 1,440 px
    add(1, 1500, 17_000)  # a strip too tall for an AVIF at its width
    assert not reencode.wide_pages_waiting(engine)
    add(2, 3200, 30_000)  # 1,600 x 15,000 once scaled: an AVIF holds it
    assert reencode.wide_pages_waiting(engine)
    session.exec(sa.update(Page).where(Page.index == 2).values(hidpi=True))
    session.commit()
    assert not reencode.wide_pages_waiting(engine)
