"""Volumes and chapters as distinct readable units: import, keys, URLs, title page, list JSON."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlmodel import Session, select

from manga_app.core import routes
from manga_app.catalogue import repository
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Chapter, Series
from manga_app.read_models.titles import load_chapter, load_title
from manga_app.pages.title.logic import chapter_rows, first_url

from .builders import distinct_pages, write_cbz

NOW = datetime(2026, 11, 25, tzinfo=UTC)


def _cbz(path, seed):
    return write_cbz(path, {f"{i + 1}.png": d for i, d in enumerate(distinct_pages(2, seed=seed))})


def _units(engine) -> list[tuple[str, str, str]]:
    with Session(engine) as session:
        rows = session.exec(select(Chapter).order_by(Chapter.number_hundredths)).all()
        return [(c.kind, routes.unit_number(c.number_hundredths / 100), c.title) for c in rows]


def _library(tmp_path):
    folder = tmp_path / "src" / "ワンダー探偵"
    for seed, name in enumerate(
        ["第1巻", "第2巻", "第三巻", "第21話", "第二十二話", "第3話", "第5話 前編", "第5話 後編", "番外編"]
    ):
        _cbz(folder / f"ワンダー探偵 {name}.cbz", seed + 1)
    return tmp_path / "src"


def test_volumes_and_chapters_of_one_folder_are_distinct_units(tmp_path, engine, media):
    # Given a folder with volumes 1-3 and chapters 3, 5 (in two parts), 21, 22 and an extra
    report = import_source(_library(tmp_path), engine=engine, media=media)
    # Then every file is imported: volume 3 and chapter 3 do not collide
    assert report.failed == [] and len(report.imported) == 9
    assert _units(engine) == [
        ("chapter", "3", ""),
        ("chapter", "5", "前編"),
        ("chapter", "5.5", "後編"),
        ("chapter", "21", ""),
        ("chapter", "22", ""),
        ("chapter", "22.7", "番外編"),  # after the last chapter beside it
        ("volume", "1", ""),
        ("volume", "2", ""),
        ("volume", "3", ""),
    ]


def test_volume_and_chapter_urls_never_collide(tmp_path, engine, media):
    import_source(_library(tmp_path), engine=engine, media=media)
    with Session(engine) as session:
        series, units = load_title(session=session, slug="wandaa-tantei", media_base_url="/m") or (None, ())
        assert series is not None, [s.slug for s in session.exec(select(Series))]
        urls = {unit.label: unit.url for unit in units}
        assert urls["第3話"] == "/wandaa-tantei-ch-3" and urls["第3巻"] == "/wandaa-tantei-ch-3-vol"
        volume = routes.parse_reader_path(urls["第3巻"])
        chapter = routes.parse_reader_path(urls["第3話"])
        assert volume["number"] != chapter["number"]
        context = load_chapter(session=session, slug="wandaa-tantei", number=volume["number"], media_base_url="/m")
        # The reader reads volume 3 there, and its neighbours are volumes
        assert (context.chapter.kind, context.chapter.label) == ("volume", "第3巻")
        assert context.previous.label == "第2巻" and context.next is None
        by_chapter = load_chapter(session=session, slug="wandaa-tantei", number=chapter["number"], media_base_url="/m")
        assert (by_chapter.chapter.label, by_chapter.next.label) == ("第3話", "第5話")
        # A volume's key written as a chapter number is no reader path
        assert routes.parse_reader_path("/wandaa-tantei-ch-1000003") is None
        stats = repository.chapter_stats(session=session, series_ids=[series.id])
        assert stats[series.id] == (2270, 9)  # the latest chapter is the extra after 第22話


def test_the_title_page_lists_volumes_and_chapters_in_their_own_groups(tmp_path, engine, media):
    import_source(_library(tmp_path), engine=engine, media=media)
    with Session(engine) as session:
        _series, units = load_title(session=session, slug="wandaa-tantei", media_base_url="/m")
    assert [row.label for row in chapter_rows(units, "volume", NOW)] == ["第3巻", "第2巻", "第1巻"]
    assert [row.label for row in chapter_rows(units, "chapter", NOW)] == ["第22.7話", "第22話", "第21話", "第5.5話", "第5話", "第3話"]
    assert first_url(units) == "/wandaa-tantei-ch-1-vol"


def test_an_extras_folder_belongs_to_its_series_and_its_extras_follow_the_last_chapter(tmp_path, engine, media):
    from manga_app.catalogue.naming import FolderRole, folder_role

    assert folder_role("番外編") == FolderRole("extras")
    assert folder_role("ワンダー探偵 おまけ") == FolderRole("extras", "ワンダー探偵")
    # Given 作品/第1話, 第10話 and 作品/番外編/番外編1, 番外編2, and a loose 別作品 第30話 beside them
    source = tmp_path / "src"
    for seed, name in enumerate(["作品/作品 第1話", "作品/作品 第10話", "作品/番外編/番外編1", "作品/番外編/番外編2", "別作品 第30話"]):
        _cbz(source / f"{name}.cbz", seed + 1)
    assert import_source(source, engine=engine, media=media).ok
    with Session(engine) as session:
        rows = session.exec(select(Series.title, Chapter.number_hundredths, Chapter.title).join(Chapter)).all()
    assert sorted(rows) == [
        ("作品", 100, ""),
        ("作品", 1000, ""),
        ("作品", 1070, "番外編1"),
        ("作品", 1071, "番外編2"),
        ("別作品", 3000, ""),
    ]
