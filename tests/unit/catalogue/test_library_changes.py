"""The source tree is the truth: renames, renumbers, moves and deletions are
applied by the next import, keeping a unit's id and views where it lives on."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime

from sqlmodel import Session, select

from manga_app.accounts import progress
from manga_app.accounts.models import UserAccount
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.read_models.titles import load_chapter

from .builders import distinct_pages, write_cbz
from .checks import assert_no_orphan_media


def _cbz(path, seed, pages=2):
    return write_cbz(path, {f"{i + 1}.png": d for i, d in enumerate(distinct_pages(pages, seed=seed))})


def _units(engine) -> list[tuple[str, int, str, int]]:
    """(series title, key, source file name, views) of every unit."""
    with Session(engine) as session:
        rows = session.exec(select(Series.title, Chapter).join(Chapter, Chapter.series_id == Series.id)).all()
        return sorted((title, c.number_hundredths, c.source_path.rsplit("/", 1)[-1], c.views) for title, c in rows)


def _read_often(engine, number: int) -> None:
    with Session(engine) as session:
        chapter = session.exec(select(Chapter).where(Chapter.number_hundredths == number)).one()
        chapter.views = 42
        session.commit()


def test_a_renamed_file_takes_the_number_its_new_name_gives(tmp_path, engine, media):
    # Given `作品 １２話.cbz` imported as chapter 12 and read 42 times
    source = tmp_path / "src"
    old = _cbz(source / "作品" / "作品 １２話.cbz", seed=1)
    assert import_source(source, engine=engine, media=media).ok
    _read_often(engine, 1200)
    # When it is renamed `作品 第14話.cbz` and the folder imported again
    old.rename(old.with_name("作品 第14話.cbz"))
    report = import_source(source, engine=engine, media=media)
    # Then it is chapter 14 (not still 12), the same unit with its views
    assert report.ok and report.removed == []
    assert _units(engine) == [("作品", 1400, "作品 第14話.cbz", 42)]


def test_a_file_moved_to_another_series_folder_moves_its_unit(tmp_path, engine, media):
    source = tmp_path / "src"
    _cbz(source / "作品A" / "作品A 第1話.cbz", seed=1)
    moving = _cbz(source / "作品A" / "第2話.cbz", seed=2)
    _cbz(source / "作品B" / "作品B 第1話.cbz", seed=3)
    assert import_source(source, engine=engine, media=media).ok
    _read_often(engine, 200)
    # When 第2話.cbz is moved into 作品B's folder
    shutil.move(moving, source / "作品B" / "第2話.cbz")
    assert import_source(source, engine=engine, media=media).ok
    # Then it is chapter 2 of 作品B, still read 42 times
    assert _units(engine) == [
        ("作品A", 100, "作品A 第1話.cbz", 0),
        ("作品B", 100, "作品B 第1話.cbz", 0),
        ("作品B", 200, "第2話.cbz", 42),
    ]


def test_a_deleted_file_is_removed_with_its_media_and_history_stays_readable(tmp_path, engine, media):
    source = tmp_path / "src"
    _cbz(source / "作品" / "作品 第1話.cbz", seed=1)
    doomed = _cbz(source / "作品" / "作品 第2話.cbz", seed=2)
    assert import_source(source, engine=engine, media=media).ok
    with Session(engine) as session:
        slug = session.exec(select(Series.slug)).one()
        doomed_keys = set(session.exec(select(Page.media_key).join(Chapter).where(Chapter.number_hundredths == 200)))
        # A reader's history points at chapter 2
        session.add(UserAccount(uid="u1"))
        progress.record_progress(session=session, uid="u1", slug=slug, chapter_hundredths=200, page=1, offset=0.0, at=datetime.now(UTC))
        session.commit()
    # When its file is deleted and the folder imported again
    doomed.unlink()
    report = import_source(source, engine=engine, media=media)
    # Then chapter 2 is gone, said so, and its pages' media with it
    assert report.ok
    assert [(p.name, m) for p, m in report.removed] == [("作品 第2話.cbz", "removed chapter 2 of '作品': its file is gone")]
    assert _units(engine) == [("作品", 100, "作品 第1話.cbz", 0)]
    assert all(not list(media.root.rglob(f"{key}*")) for key in doomed_keys)
    assert_no_orphan_media(engine, media.root)
    with Session(engine) as session:
        # The reader finds no chapter 2 (a 404, not a 500) and the history still lists it
        assert load_chapter(session=session, slug=slug, number="2", media_base_url="/m") is None
        rows = progress.history(session=session, uid="u1")
        assert [(r.series_slug, r.chapter_hundredths, r.chapter_title) for r in rows] == [(slug, 200, "")]


def test_importing_one_subfolder_removes_nothing_outside_it(tmp_path, engine, media):
    source = tmp_path / "src"
    _cbz(source / "作品A" / "作品A 第1話.cbz", seed=1)
    _cbz(source / "作品B" / "作品B 第1話.cbz", seed=2)
    assert import_source(source, engine=engine, media=media).ok
    report = import_source(source / "作品B", engine=engine, media=media)
    assert report.ok and report.removed == [] and len(_units(engine)) == 2


def _renumbered_by_renames(tmp_path, engine, media, *, swap: bool):
    """Chapters 1 (A) and 2 (B), then renamed: A to 第2話 and B to 第3話 (or, with
    `swap`, A to 第2話 and B to 第1話). Returns the units after the re-import."""
    folder = tmp_path / "src" / "作品"
    a, b = _cbz(folder / "第1話.cbz", seed=1), _cbz(folder / "第2話.cbz", seed=2, pages=3)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    _read_often(engine, 100)  # A is read 42 times
    b.rename(folder / "tmp")
    a.rename(folder / "第2話.cbz")
    (folder / "tmp").rename(folder / ("第1話.cbz" if swap else "第3話.cbz"))
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert (report.failed, report.removed) == ([], [])
    return _units(engine)


def test_renames_that_shift_numbers_apply_whatever_the_order(tmp_path, engine, media):
    # 第2話 (now A) is met before 第3話 (now B), which still holds number 2
    assert _renumbered_by_renames(tmp_path, engine, media, swap=False) == [
        ("作品", 200, "第2話.cbz", 42),
        ("作品", 300, "第3話.cbz", 0),
    ]
    assert_no_orphan_media(engine, media.root)


def test_renames_that_swap_two_numbers_apply(tmp_path, engine, media):
    assert _renumbered_by_renames(tmp_path, engine, media, swap=True) == [
        ("作品", 100, "第1話.cbz", 0),
        ("作品", 200, "第2話.cbz", 42),
    ]


def test_a_file_renamed_over_a_deleted_one_takes_its_number_and_the_old_unit_goes(tmp_path, engine, media):
    folder = tmp_path / "src" / "作品"
    a, b = _cbz(folder / "第1話.cbz", seed=1), _cbz(folder / "第2話.cbz", seed=2, pages=3)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    b.unlink()
    a.rename(folder / "第2話.cbz")
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.failed == [] and [m for _, m in report.removed] == [
        "removed a unit of '作品': its file now holds another unit, and its content is nowhere in the source"
    ]
    assert _units(engine) == [("作品", 200, "第2話.cbz", 0)]
    assert_no_orphan_media(engine, media.root)
