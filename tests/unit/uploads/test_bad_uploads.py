"""Bad files in an uploaded batch, through the console's own path (the plan,
Confirm and import, the job the consumer runs): a file that is no comic
under a comic's name, an encrypted archive, a zip bomb and an archive whose
entry names leave it are each refused with the reason, in the plan (all
but the bomb: the plan reads no page, and only reading it tells) and in the
job's files; nothing of them is written (no chapter, no orphan media)
and the rest of the batch is imported. (A name that leaves the staging
folder, a file that is no comic by its name and a full disk are refused
before a byte is taken: test_tus_endpoint.py, test_full_disk.py.)"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from sqlmodel import select

from manga_app.catalogue.metadata import Actor
from manga_app.core import db
from manga_app.core.config import get_settings
from manga_app.jobs.models import JobFile
from manga_app.jobs.runner import run_job
from manga_app.uploads import confirm, staging
from manga_app.uploads.plan import plan_staged
from tests.unit.catalogue.builders import FIXTURES, distinct_pages, image_bytes, write_cbz, zip_bomb
from tests.unit.catalogue.checks import assert_no_orphan_media, chapter_rows

OPERATOR = Actor("op-uid", "op@example.com")
SERIES = "灯台守の記録"
REASONS = {
    "not a comic": f"{SERIES}/{SERIES} 第2話.cbz",
    "encrypted": f"{SERIES}/{SERIES} 第3話.cbz",
    "zip bomb": f"{SERIES}/{SERIES} 第4話.cbz",
    "unsafe entry name": f"{SERIES}/{SERIES} 第5話.cbz",
}


@pytest.fixture
def settings(tmp_path: Path, clean_settings, configure, engine, monkeypatch):
    configure(DATA_DIR=tmp_path / "data")
    monkeypatch.setattr(db, "_SHARED_ENGINE", engine)
    return get_settings()


def _stage_the_batch(root: Path) -> None:
    write_cbz(root / f"{SERIES}/{SERIES} 第1話.cbz", {"1.png": distinct_pages(1, seed=5)[0]})
    (root / REASONS["not a comic"]).write_bytes(b"this is a shopping list, not a comic\n" * 40)
    shutil.copy(FIXTURES / "archives" / "zip-encrypted.zip", root / REASONS["encrypted"])
    zip_bomb(root / REASONS["zip bomb"], megabytes=80)
    with zipfile.ZipFile(root / REASONS["unsafe entry name"], "w") as archive:
        archive.writestr("1.png", image_bytes())
        archive.writestr(zipfile.ZipInfo("../../evil.png"), image_bytes())


def test_bad_files_of_an_uploaded_batch_are_refused_with_reasons_and_the_rest_is_imported(settings, session, engine):
    root = staging.staged_dir(settings, OPERATOR.uid)
    _stage_the_batch(root)
    plan = {item.path: item for item in plan_staged(root, engine)}
    assert plan[f"{SERIES}/{SERIES} 第1話.cbz"].outcome == "new"
    for reason, path in REASONS.items():
        if reason == "zip bomb":  # its headers look like a page's: only reading it tells
            continue
        assert plan[path].outcome == "refused" and reason in plan[path].reason.lower(), (path, plan[path].reason)

    job = confirm.confirm(session, settings, OPERATOR)  # refused files don't hold the rest up
    assert run_job(job.id, engine=engine, settings=settings) == "done"
    files = {row.path: row for row in session.exec(select(JobFile).where(JobFile.job_id == job.id))}
    assert files[f"{SERIES}/{SERIES} 第1話.cbz"].outcome == "imported"
    for reason, path in REASONS.items():
        assert files[path].outcome == "failed" and reason in files[path].reason.lower(), (path, files[path].reason)
    assert [(title, number) for title, number, _pages in chapter_rows(engine)] == [(SERIES, 100)]
    assert_no_orphan_media(engine, settings.media_dir)
