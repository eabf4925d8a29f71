"""Re-imports: unchanged chapters are skipped whatever their mtime, changed ones are
updated in place (id, views and publication time kept), and a second file claiming
a chapter number fails as a duplicate unless the first one has gone."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime

from sqlmodel import Session, select

from manga_app.catalogue import repository
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Chapter, Series

from .builders import comicinfo_xml, distinct_pages, touch_later, write_cbz
from .checks import assert_no_orphan_media, chapter_rows

LONG_AGO = datetime(2023, 4, 5, 6, 7, 8, tzinfo=UTC)


def _cbz(path, pages=3, seed=0, **kwargs):
    return write_cbz(
        path, {f"{i + 1}.png": data for i, data in enumerate(distinct_pages(pages, seed=seed))}, **kwargs
    )


def _set_mtime(path, moment: datetime) -> None:
    os.utime(path, (moment.timestamp(), moment.timestamp()))


def _chapters(engine) -> dict[int, Chapter]:
    with Session(engine) as session:
        return {c.number_hundredths: c for c in session.exec(select(Chapter)).all()}


def _give_views(engine, number: int, views: int) -> None:
    with Session(engine) as session:
        chapter = session.exec(select(Chapter).where(Chapter.number_hundredths == number)).one()
        chapter.views = views
        session.commit()


def test_a_changed_chapter_is_updated_in_place_keeping_its_id_views_and_publication_time(
    tmp_path, engine, media
):
    # Given an imported chapter without a ComicInfo date, read 42 times
    archive = _cbz(tmp_path / "src" / "S" / "S 1.cbz", seed=1)
    _set_mtime(archive, LONG_AGO)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    _give_views(engine, 100, 42)
    before = _chapters(engine)[100]
    # When its pages change (a fixed scan) and it is imported again today
    _cbz(archive, pages=4, seed=2)
    report = import_source(tmp_path / "src", engine=engine, media=media)
    # Then it is the same chapter with the new pages, its views and date untouched
    assert [p.name for p in report.imported] == ["S 1.cbz"]
    after = _chapters(engine)[100]
    assert (after.id, after.views, after.created_at) == (before.id, 42, before.created_at)
    assert after.published_at == LONG_AGO
    assert chapter_rows(engine) == [("S", 100, 4)]
    assert_no_orphan_media(engine, media.root)


def test_a_touched_file_is_skipped_and_its_date_stays(tmp_path, engine, media):
    archive = _cbz(tmp_path / "src" / "S" / "S 1.cbz")
    _set_mtime(archive, LONG_AGO)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    touch_later(archive, seconds=86_400 * 30)
    again = import_source(tmp_path / "src", engine=engine, media=media)
    assert (len(again.imported), len(again.skipped)) == (0, 1)
    assert _chapters(engine)[100].published_at == LONG_AGO
    # The new mtime is recorded: the next import skips it without reading the file
    chapter = _chapters(engine)[100]
    assert chapter.source_mtime_ns == archive.stat().st_mtime_ns
    assert chapter.source_size == archive.stat().st_size and len(chapter.fingerprint) == 64


def test_a_re_import_moves_the_publication_time_only_when_the_metadata_gives_another_day(
    tmp_path, engine, media
):
    def write(day: int, seed: int):
        info = comicinfo_xml(Series="S", Number="1", Year="2024", Month="5", Day=str(day))
        path = _cbz(tmp_path / "src" / "S" / "S 1.cbz", seed=seed, comicinfo=info)
        _set_mtime(path, datetime(2024, 5, day, 15, 30, tzinfo=UTC))  # the exact time, that day

    write(day=3, seed=1)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    assert _chapters(engine)[100].published_at == datetime(2024, 5, 3, 15, 30, tzinfo=UTC)
    write(day=3, seed=2)  # new pages, same day: the exact time stays
    assert import_source(tmp_path / "src", engine=engine, media=media).imported
    assert _chapters(engine)[100].published_at == datetime(2024, 5, 3, 15, 30, tzinfo=UTC)
    write(day=9, seed=3)  # the metadata says another day
    assert import_source(tmp_path / "src", engine=engine, media=media).imported
    assert _chapters(engine)[100].published_at == datetime(2024, 5, 9, 15, 30, tzinfo=UTC)


def test_the_same_chapter_number_from_another_file_is_a_duplicate_naming_both_files(
    tmp_path, engine, media
):
    # Given chapter 5 imported from one file, read 7 times
    first = _cbz(tmp_path / "one" / "S" / "S 5.cbz", seed=1)
    assert import_source(tmp_path / "one", engine=engine, media=media).ok
    _give_views(engine, 500, 7)
    # When another import brings chapter 5 of the same series in another file
    second = _cbz(tmp_path / "two" / "S" / "S ch5.cbz", seed=2)
    report = import_source(tmp_path / "two", engine=engine, media=media)
    # Then it fails naming both files, and the chapter is untouched
    [(failed, message)] = report.failed
    assert failed == second.resolve()
    assert "duplicate chapter number 5 of 'S'" in message
    assert str(first.resolve()) in message and str(second.resolve()) in message
    assert _chapters(engine)[500].views == 7
    assert _chapters(engine)[500].source_path == str(first.resolve())
    # And re-importing the first one does not swap anything back and forth
    assert import_source(tmp_path / "one", engine=engine, media=media).skipped == [first.resolve()]
    assert import_source(tmp_path / "two", engine=engine, media=media).failed
    assert_no_orphan_media(engine, media.root)


def test_a_chapter_whose_file_moved_is_replaced_by_the_new_file(tmp_path, engine, media):
    # Given chapter 5 imported from a file that is then deleted
    first = _cbz(tmp_path / "one" / "S" / "S 5.cbz", seed=1)
    assert import_source(tmp_path / "one", engine=engine, media=media).ok
    _give_views(engine, 500, 7)
    before = _chapters(engine)[500]
    first.unlink()
    # When a re-scanned chapter 5 arrives from elsewhere
    second = _cbz(tmp_path / "two" / "S" / "S 5 (rescan).cbz", pages=5, seed=3)
    assert import_source(tmp_path / "two", engine=engine, media=media).ok
    # Then it replaces the chapter in place
    after = _chapters(engine)[500]
    assert (after.id, after.views, after.source_path) == (before.id, 7, str(second.resolve()))
    assert chapter_rows(engine) == [("S", 500, 5)]
    assert_no_orphan_media(engine, media.root)


def test_a_moved_but_unchanged_file_is_skipped_and_remembered_at_its_new_place(
    tmp_path, engine, media
):
    first = _cbz(tmp_path / "src" / "S" / "S 5.cbz")
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    # (into a volume folder of the same series: the file still says S, chapter 5)
    moved = tmp_path / "src" / "S" / "第1巻" / "S 5.cbz"
    moved.parent.mkdir()
    shutil.move(first, moved)
    again = import_source(tmp_path / "src", engine=engine, media=media)
    assert (again.skipped, again.failed) == ([moved.resolve()], [])
    assert _chapters(engine)[500].source_path == str(moved.resolve())


def test_tags_are_kept_apart_from_genres(tmp_path, engine, media):
    info = comicinfo_xml(Series="S", Number="1", Genre="ファンタジー, 日常", Tags="魔法, お仕事")
    _cbz(tmp_path / "src" / "S" / "S 1.cbz", comicinfo=info)
    info = comicinfo_xml(Series="S", Number="2", Genre="日常", Tags="お仕事, 旅")
    _cbz(tmp_path / "src" / "S" / "S 2.cbz", seed=2, comicinfo=info)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    with Session(engine) as session:
        series = session.exec(select(Series)).one()
        genres = repository.genres_by_series(session=session, series_ids=[series.id])[series.id]
    assert genres == ["ファンタジー", "日常"]
    assert series.tags == ["魔法", "お仕事", "旅"]
