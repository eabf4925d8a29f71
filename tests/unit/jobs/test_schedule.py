"""Scheduled scans of library folders: each library has a scan interval (off,
hourly, every 6 hours, daily); the consumer's periodic task queues a scan of
each library that is due and has no scan queued or running, as the
scheduler in the audit log. The real consumer (`python -m manga_app.jobs`)
runs the schedule, one or two of them; the schedule's own steps are also
taken here in the test's process, with the clock given."""

from __future__ import annotations

import shutil
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from manga_app.catalogue.models import AuditEntry, utc_now
from manga_app.jobs import schedule, store
from manga_app.jobs.models import ImportJob, LibraryFolder
from tests.unit.catalogue.builders import image_bytes, write_cbz
from tests.unit.jobs.test_jobs import Actor, _wait, site  # noqa: F401


def _library(engine, root: Path, interval: str, *, scanned_ago: timedelta | None = None) -> int:
    """A registered library of one chapter, scanned `scanned_ago` (a finished job), on `interval`."""
    write_cbz(root / root.name / f"{root.name} 1.cbz", {"1.png": image_bytes()})
    with Session(engine) as session:
        library_id = store.add_library(session, str(root), root.parent / "data", Actor()).id
        if scanned_ago is not None:
            at = utc_now() - scanned_ago
            session.add(ImportJob(source=str(root), label="earlier scan", library_id=library_id, status="done",
                                  created_at=at, finished_at=at))
            session.commit()
        schedule.set_interval(session, library_id, interval, Actor())
    return library_id


def _jobs_of(engine, library_id: int) -> list[ImportJob]:
    with Session(engine) as session:
        return list(session.exec(select(ImportJob).where(ImportJob.library_id == library_id).order_by(ImportJob.id)))


def _scheduler_runs(logs: list[Path]) -> int:
    """How often the consumers writing `logs` looked for due libraries (either may run either's look)."""
    return sum(log.read_text().count("Scheduled scans:") for log in logs if log.exists())


def test_a_due_library_is_scanned_once_and_a_recently_scanned_or_off_one_is_not(site, tmp_path: Path):
    engine, data, start = site
    due = _library(engine, tmp_path / "due", "hourly")  # never scanned: due at once
    recent = _library(engine, tmp_path / "recent", "hourly", scanned_ago=timedelta(minutes=10))
    off = _library(engine, tmp_path / "off", "off")
    start()
    job = _wait(engine, _wait_for_job(engine, due), lambda job: job.status in ("done", "failed"))
    assert job.status == "done", job.summary
    assert job.requested_by == "scheduler" and job.label.startswith("Scheduled scan of")
    assert len(_jobs_of(engine, due)) == 1
    assert [j.label for j in _jobs_of(engine, recent)] == ["earlier scan"]
    assert _jobs_of(engine, off) == []
    with Session(engine) as session:
        folders = {f.id: f for f in session.exec(select(LibraryFolder))}
        audit = session.exec(select(AuditEntry).where(AuditEntry.action == "import-job")).all()
    assert [(entry.actor_uid, entry.target) for entry in audit] == [("scheduler", f"job {job.id}: {job.label}")]
    assert folders[due].next_scan_at > utc_now() + timedelta(minutes=50)  # an hour after this scan
    assert folders[recent].next_scan_at > utc_now() + timedelta(minutes=40)  # an hour after the earlier one
    assert folders[off].next_scan_at is None


def _wait_for_job(engine, library_id: int) -> int:
    deadline = time.monotonic() + 120
    while not (jobs := _jobs_of(engine, library_id)):
        assert time.monotonic() < deadline, "the scheduler never queued a scan"
        time.sleep(0.1)
    return jobs[0].id


def test_two_consumers_do_not_scan_a_due_library_twice(site, tmp_path: Path):
    engine, data, start = site
    due = _library(engine, tmp_path / "due", "daily")
    first, second = start(), start()  # each runs the schedule as it starts
    logs = [tmp_path / "consumer-0.log", tmp_path / "consumer-1.log"]
    deadline = time.monotonic() + 120
    while _scheduler_runs(logs) < 2:
        assert time.monotonic() < deadline, "a consumer never ran the schedule"
        assert first.poll() is None and second.poll() is None, "a consumer stopped"
        time.sleep(0.1)
    jobs = _jobs_of(engine, due)
    assert len(jobs) == 1
    assert _wait(engine, jobs[0].id, lambda job: job.status in ("done", "failed")).status == "done"
    assert len(_jobs_of(engine, due)) == 1


def test_two_schedulers_that_both_found_a_library_due_queue_one_scan(site, tmp_path: Path):
    engine, data, _ = site
    due = _library(engine, tmp_path / "due", "hourly")
    now = utc_now()
    with Session(engine) as one, Session(engine) as other:
        seen = schedule.due(one, now), schedule.due(other, now)  # both read before either queues
    assert [len(found) for found in seen] == [1, 1]
    queued = [schedule.queue_scan(engine, found[0], now) for found in seen]
    assert len([job for job in queued if job is not None]) == 1
    assert len(_jobs_of(engine, due)) == 1


def test_a_failed_scan_does_not_stop_the_schedule(site, tmp_path: Path):
    engine, data, start = site
    root = tmp_path / "gone"
    library = _library(engine, root, "hourly")
    shutil.rmtree(root)  # unmounted, say
    start()
    job = _wait(engine, _wait_for_job(engine, library), lambda job: job.status in ("done", "failed"))
    assert job.status == "failed" and job.summary == f"Cannot import {root}: it is no longer on the server (moved or unmounted?)."
    with Session(engine) as session:
        folder = session.get(LibraryFolder, library)
    assert folder.scan_every_hours == 1 and folder.next_scan_at > utc_now() + timedelta(minutes=50)
    assert schedule.scan_due(engine, folder.next_scan_at - timedelta(minutes=1)) == []
    assert len(schedule.scan_due(engine, folder.next_scan_at)) == 1  # an hour on, it is tried again
    assert len(_jobs_of(engine, library)) == 2


def test_a_library_scanned_now_by_the_operator_waits_a_whole_interval(site, tmp_path: Path):
    engine, data, _ = site
    library = _library(engine, tmp_path / "lib", "every-6-hours")
    with Session(engine) as session:
        store.scan(session, library, Actor())
        folder = session.get(LibraryFolder, library)
    assert folder.next_scan_at > utc_now() + timedelta(hours=5)
    assert schedule.scan_due(engine, utc_now()) == []


@pytest.mark.parametrize("library, interval, reason", [
    ("known", "weekly", "Unknown scan interval 'weekly': choose Off, Hourly, Every 6 hours or Daily."),
    ("known", "", "Unknown scan interval '': choose Off, Hourly, Every 6 hours or Daily."),
    (999, "daily", "That library is not registered any more."),
])
def test_an_unknown_interval_or_library_is_refused_and_nothing_is_written(site, tmp_path, library, interval, reason):
    engine, data, _ = site
    known = _library(engine, tmp_path / "lib", "off")
    with Session(engine) as session:
        audit_before = len(session.exec(select(AuditEntry)).all())
        with pytest.raises(store.Refused) as refused:
            schedule.set_interval(session, known if library == "known" else library, interval, Actor())
        assert str(refused.value) == reason
        session.rollback()
        folder = session.get(LibraryFolder, known)
        assert (folder.scan_every_hours, folder.next_scan_at) == (0, None)
        assert len(session.exec(select(AuditEntry)).all()) == audit_before


def test_setting_an_interval_is_audited_and_gives_the_next_scan_time(site, tmp_path):
    engine, data, _ = site
    library = _library(engine, tmp_path / "lib", "off", scanned_ago=timedelta(hours=2))
    with Session(engine) as session:
        message = schedule.set_interval(session, library, "every-6-hours", Actor())
        folder = session.get(LibraryFolder, library)
        entry = session.exec(select(AuditEntry).where(AuditEntry.action == "scan-interval")).one()
    assert folder.scan_every_hours == 6
    assert timedelta(hours=3, minutes=59) < folder.next_scan_at - utc_now() <= timedelta(hours=4)
    assert message.startswith(f"{tmp_path / 'lib'} is scanned every 6 hours; next scan at ")
    assert (entry.actor_email, entry.before, entry.after) == ("op@example.com", "off", "every-6-hours")
