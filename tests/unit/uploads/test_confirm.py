"""Confirming the staged files queues their import on the job queue (and the
job imports them with the real importer); dropping removes one."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from manga_app.catalogue.metadata import Actor
from manga_app.catalogue.models import AuditEntry, Chapter, Series
from manga_app.core import db
from manga_app.core.config import get_settings
from manga_app.jobs import store
from manga_app.jobs.models import ImportJob
from manga_app.jobs.runner import run_job
from manga_app.uploads import confirm, staging
from tests.unit.catalogue.builders import distinct_pages, write_cbz

OPERATOR = Actor("op-uid", "op@example.com")


@pytest.fixture
def settings(tmp_path: Path, clean_settings, configure, engine, monkeypatch):
    configure(DATA_DIR=tmp_path / "data")
    monkeypatch.setattr(db, "_SHARED_ENGINE", engine)
    return get_settings()


def _stage(settings, name: str, seed: int) -> None:
    pages = {f"{i:03}.png": data for i, data in enumerate(distinct_pages(2, seed=seed), 1)}
    write_cbz(staging.staged_dir(settings, OPERATOR.uid) / name, pages)


def test_confirm_queues_one_import_job_of_the_staged_files(settings, session, engine):
    _stage(settings, "星の庭/星の庭 第1話.cbz", 1)
    _stage(settings, "星の庭/星の庭 第2話.cbz", 2)
    job = confirm.confirm(session, settings, OPERATOR)
    assert (job.status, job.label, job.requested_by) == ("queued", "Upload of 2 files", "op@example.com")
    batch = Path(job.source)
    assert batch.parent == staging.uploads_dir(settings) / "batches"
    assert sorted(p.name for p in batch.rglob("*.cbz")) == ["星の庭 第1話.cbz", "星の庭 第2話.cbz"]
    assert staging.staged_files(settings, OPERATOR.uid) == []
    assert session.exec(select(AuditEntry.action).where(AuditEntry.target.contains("Upload of 2 files"))).one() == "import-job"

    assert run_job(job.id, engine=engine, settings=settings) == "done"
    session.expire_all()
    series = session.exec(select(Series).where(Series.title == "星の庭")).one()
    assert len(session.exec(select(Chapter).where(Chapter.series_id == series.id)).all()) == 2
    assert session.get(ImportJob, job.id).summary.startswith("2 imported")


def test_confirm_waits_until_no_staged_file_is_in_conflict(settings, session):
    """Two files claim chapter 1 of one series: nothing is confirmed until the
    operator places one elsewhere (or drops it); then both are queued."""
    _stage(settings, "星の庭/星の庭 第1話.cbz", 1)
    _stage(settings, "星の庭/星の庭 第1話 修正版.cbz", 2)
    with pytest.raises(store.Refused) as refused:
        confirm.confirm(session, settings, OPERATOR)
    assert str(refused.value) == ("Resolve the conflict first (Edit its placement, or Drop it): "
                                  "星の庭/星の庭 第1話 修正版.cbz.")
    assert len(staging.staged_files(settings, OPERATOR.uid)) == 2
    assert session.exec(select(ImportJob)).all() == []
    confirm.edit(session, settings, OPERATOR, "星の庭/星の庭 第1話 修正版.cbz", "星の庭", "chapter", "2")
    assert confirm.confirm(session, settings, OPERATOR).status == "queued"


def test_confirm_with_nothing_staged_is_refused(settings, session):
    with pytest.raises(store.Refused, match="Nothing is staged"):
        confirm.confirm(session, settings, OPERATOR)


def test_drop_removes_a_staged_file_and_the_folders_it_leaves_empty(settings, session):
    _stage(settings, "星の庭/星の庭 第1話.cbz", 1)
    _stage(settings, "other 第1話.cbz", 2)
    assert confirm.drop(session, settings, OPERATOR, "星の庭/星の庭 第1話.cbz") == "Dropped 星の庭/星の庭 第1話.cbz."
    assert [str(p) for p in staging.staged_files(settings, OPERATOR.uid)] == ["other 第1話.cbz"]
    assert not (staging.staged_dir(settings, OPERATOR.uid) / "星の庭").exists()
    assert session.exec(select(AuditEntry.action).where(AuditEntry.target == "staged 星の庭/星の庭 第1話.cbz")).one() == "drop-upload"


@pytest.mark.parametrize("path", ["../escape.cbz", "/etc/passwd", "", "missing.cbz"])
def test_drop_outside_the_staging_folder_or_of_nothing_is_refused(settings, session, tmp_path, path):
    _stage(settings, "other 第1話.cbz", 2)
    (staging.uploads_dir(settings) / "staged" / "escape.cbz").write_bytes(b"x")
    with pytest.raises(store.Refused, match="is not staged any more"):
        confirm.drop(session, settings, OPERATOR, path)
    assert (staging.uploads_dir(settings) / "staged" / "escape.cbz").exists()


def test_an_edited_placement_is_planned_imported_and_audited(settings, session, engine):
    _stage(settings, "misc/scan_0042.cbz", 1)
    assert confirm.edit(session, settings, OPERATOR, "misc/scan_0042.cbz", "白い街", "volume", "2") == (
        "misc/scan_0042.cbz is placed as volume 2 of 白い街.")
    entry = session.exec(select(AuditEntry).where(AuditEntry.action == "edit-placement")).one()
    assert (entry.target, entry.after) == ("staged misc/scan_0042.cbz", "白い街, volume 2")

    job = confirm.confirm(session, settings, OPERATOR)
    assert job.label == "Upload of 1 file"
    assert run_job(job.id, engine=engine, settings=settings) == "done"
    session.expire_all()
    series = session.exec(select(Series).where(Series.title == "白い街")).one()
    unit = session.exec(select(Chapter).where(Chapter.series_id == series.id)).one()
    assert (unit.kind, unit.number_hundredths % 1_000_000) == ("volume", 200)


def test_an_edit_of_nothing_staged_or_not_a_placement_is_refused(settings, session):
    _stage(settings, "a 第1話.cbz", 1)
    with pytest.raises(store.Refused, match="is not staged any more"):
        confirm.edit(session, settings, OPERATOR, "b 第1話.cbz", "x", "chapter", "1")
    with pytest.raises(store.Refused, match="is not a chapter number"):
        confirm.edit(session, settings, OPERATOR, "a 第1話.cbz", "x", "chapter", "x")


def test_dropping_a_file_forgets_its_placement(settings, session):
    _stage(settings, "a 第1話.cbz", 1)
    confirm.edit(session, settings, OPERATOR, "a 第1話.cbz", "x", "chapter", "2")
    confirm.drop(session, settings, OPERATOR, "a 第1話.cbz")
    assert not (staging.staged_dir(settings, OPERATOR.uid) / ".placements.json").exists()
