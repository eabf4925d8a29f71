"""The importer's worker pool: the same outcome as one process, and nothing orphaned on failure."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from manga_app.core.db import make_engine, migrate
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.media import MediaStore, cover_path
from manga_app.catalogue.models import Chapter, Series

from .builders import comicinfo_xml, distinct_pages, image_bytes, write_cbz
from .checks import assert_no_orphan_media, chapter_rows


def _library(root: Path) -> Path:
    """Three series; one bad page, one duplicate chapter, a cover file and a shared page."""
    shared = image_bytes((7, 7, 7), size=(900, 1300), fmt="JPEG")
    for s, name in enumerate(["Alpha", "ベータ", "Gamma"]):
        for c in (1, 2, 3):
            pages = {f"{i}.png": p for i, p in enumerate(distinct_pages(4, seed=s * 10 + c))}
            pages["9.jpg"] = shared  # the same image in every chapter
            write_cbz(root / name / f"{name} {c}.cbz", pages)
    write_cbz(root / "Alpha" / "Alpha ch2 again.cbz", {"1.png": image_bytes((1, 2, 3))})
    write_cbz(
        root / "ベータ" / "ベータ 4.cbz", {"1.png": image_bytes((9, 8, 7)), "2.png": image_bytes()[:70]}
    )
    (root / "Gamma" / "cover.jpg").write_bytes(image_bytes((50, 60, 70), size=(400, 600), fmt="JPEG"))
    return root


def _import(tmp_path: Path, name: str, source: Path, workers: int):
    url = f"sqlite:///{tmp_path / f'{name}.db'}"
    migrate(url)
    engine = make_engine(url)
    media = MediaStore(tmp_path / f"{name}-media")
    report = import_source(source, engine=engine, media=media, workers=workers)
    return engine, media, report


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def test_a_parallel_import_has_the_same_outcome_as_a_sequential_one(tmp_path):
    source = _library(tmp_path / "src")
    one, one_media, one_report = _import(tmp_path, "one", source, workers=1)
    two, two_media, two_report = _import(tmp_path, "two", source, workers=2)
    try:
        assert two_report == one_report
        assert [p.name for p, _ in two_report.failed] == ["Alpha ch2 again.cbz", "ベータ 4.cbz"]
        assert "duplicate chapter number 2" in two_report.failed[0][1]
        assert "corrupt image" in two_report.failed[1][1]
        assert chapter_rows(two) == chapter_rows(one)
        assert _files(two_media.root) == _files(one_media.root)
        covers = []
        for engine in (one, two):
            with Session(engine) as session:
                covers.append(dict(session.exec(select(Series.title, Series.cover_key)).all()))
        assert covers[0] == covers[1] and len(covers[0]) == 3 and all(covers[0].values())
        assert_no_orphan_media(one, one_media.root)
        assert_no_orphan_media(two, two_media.root)
        # Re-importing in parallel skips everything and changes nothing
        again = import_source(source, engine=two, media=two_media, workers=2)
        assert len(again.skipped) == 9 and len(again.failed) == 2
        assert _files(two_media.root) == _files(one_media.root)
    finally:
        one.dispose()
        two.dispose()


def test_files_a_failed_chapter_shares_with_an_imported_one_are_kept(tmp_path):
    # Given two chapters sharing a page; the first also has a broken page
    shared = image_bytes((3, 3, 3), size=(1000, 1500))
    source = tmp_path / "src"
    write_cbz(source / "S" / "S 1.cbz", {"1.png": shared, "2.png": image_bytes()[:70]})
    write_cbz(source / "S" / "S 2.cbz", {"1.png": shared, "2.png": image_bytes((4, 4, 4))})
    engine, media, report = _import(tmp_path, "db", source, workers=2)
    try:
        # Then chapter 1 fails, chapter 2 is whole, and the shared page's files are all there
        assert [p.name for p, _ in report.failed] == ["S 1.cbz"]
        assert chapter_rows(engine) == [("S", 200, 2)]
        assert_no_orphan_media(engine, media.root)
        with Session(engine) as session:
            cover = session.exec(select(Series.cover_key)).one()
        assert media.has_cover(cover)
    finally:
        engine.dispose()


def test_an_interrupted_import_keeps_what_was_committed_and_removes_what_was_read_ahead(tmp_path):
    source = tmp_path / "src"
    for c in range(1, 9):
        write_cbz(
            source / "S" / f"S {c}.cbz",
            {f"{i}.png": p for i, p in enumerate(distinct_pages(6, seed=c))},
        )
    url = f"sqlite:///{tmp_path / 'db.db'}"
    migrate(url)
    engine = make_engine(url)
    media = MediaStore(tmp_path / "media")
    seen = []

    def interrupt(candidate):
        seen.append(candidate)
        if len(seen) == 2:
            raise KeyboardInterrupt

    try:
        with pytest.raises(KeyboardInterrupt):
            import_source(source, engine=engine, media=media, on_progress=interrupt, workers=2)
        assert chapter_rows(engine) == [("S", 100, 6), ("S", 200, 6)]
        assert_no_orphan_media(engine, media.root)
    finally:
        engine.dispose()


def test_when_a_lower_chapter_arrives_later_the_cover_moves_and_old_thumbnails_go(
    tmp_path, engine, media
):
    source = tmp_path / "src"
    write_cbz(source / "S" / "S 2.cbz", {"1.png": image_bytes((20, 20, 20), size=(500, 700))})
    assert import_source(source, engine=engine, media=media, workers=2).ok
    with Session(engine) as session:
        old = session.exec(select(Series.cover_key)).one()
    assert media.has_cover(old)
    write_cbz(source / "S" / "S 1.cbz", {"1.png": image_bytes((10, 10, 10), size=(500, 700))})
    assert import_source(source, engine=engine, media=media, workers=2).ok
    with Session(engine) as session:
        new = session.exec(select(Series.cover_key)).one()
    assert new != old and media.has_cover(new)
    assert not media.path(cover_path(old)).exists()  # its page stays, its thumbnails do not
    assert_no_orphan_media(engine, media.root)


def test_a_chapter_published_today_keeps_its_exact_time_from_the_file(tmp_path, engine, media):
    # Given chapters whose ComicInfo says the day, with the exact time as the archive's mtime
    moment = datetime(2025, 6, 7, 8, 9, 10, tzinfo=UTC)
    source = tmp_path / "src"
    for number, mtime in ((1, moment), (2, moment + timedelta(days=1))):
        path = write_cbz(
            source / "S" / f"S {number}.cbz",
            {"1.png": image_bytes((number, 0, 0))},
            comicinfo=comicinfo_xml(
                Series="S",
                LocalizedSeries="エス",
                AlternateSeries="S",
                Number=str(number),
                Year="2025",
                Month="6",
                Day="7",
            ),
        )
        os.utime(path, (mtime.timestamp(), mtime.timestamp()))
    # When imported
    assert import_source(source, engine=engine, media=media).ok
    with Session(engine) as session:
        published = dict(session.exec(select(Chapter.number_hundredths, Chapter.published_at)).all())
        series = session.exec(select(Series)).one()
    # Then the mtime on that day is the exact time; a later mtime leaves the date at midnight
    assert published == {100: moment, 200: datetime(2025, 6, 7, tzinfo=UTC)}
    assert series.updated_at == moment
    assert series.alt_titles == ["エス"]  # AlternateSeries equal to the title is not an alias


def test_small_imports_do_not_start_worker_processes(tmp_path, engine, media, monkeypatch):
    from manga_app.catalogue import import_pipeline

    def no_pool(workers):
        raise AssertionError("started a process pool")

    monkeypatch.setattr(import_pipeline, "process_pool", no_pool)
    write_cbz(tmp_path / "src" / "S" / "S 1.cbz", {"1.png": image_bytes()})
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    shutil.rmtree(tmp_path / "src")


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_reported_per_page_so_one_huge_archive_moves_the_bar(tmp_path, engine, media, workers):
    write_cbz(tmp_path / "src" / "S" / "S 1.cbz", {f"{i}.png": p for i, p in enumerate(distinct_pages(12))})
    write_cbz(tmp_path / "src" / "S" / "S 2.cbz", {"1.png": image_bytes((5, 6, 7))})
    pages: list[tuple[str, int, int]] = []
    settled: list[str] = []
    report = import_source(
        tmp_path / "src", engine=engine, media=media, workers=workers,
        on_page=lambda c, done, total: pages.append((c.path.name, done, total)),
        on_progress=lambda c: settled.append(c.path.name),
    )
    assert report.ok and settled == ["S 1.cbz", "S 2.cbz"]
    first = [done for name, done, total in pages if name == "S 1.cbz" and total == 12]
    assert first == sorted(set(first)) and first[-1] == 12
    if workers == 1:
        assert first == list(range(1, 13))  # every single page
    assert ("S 2.cbz", 1, 1) in pages
