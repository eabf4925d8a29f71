"""The importer end to end: real archives and folders into a real SQLite file and media store."""

from __future__ import annotations

import hashlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlmodel import Session, select

from manga_app.catalogue import repository
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Chapter, Page, Series

from .builders import (
    FIXTURES,
    bomb_png,
    comicinfo_xml,
    distinct_pages,
    image_bytes,
    touch_later,
    write_cbz,
    write_folder,
    zip_bomb,
)
from .checks import assert_no_orphan_media, chapter_rows


def _cbz(path: Path, pages: int = 3, seed: int = 0, **kwargs) -> Path:
    return write_cbz(
        path,
        {f"{i + 1}.png": data for i, data in enumerate(distinct_pages(pages, seed=seed))},
        **kwargs,
    )


def test_a_series_folder_imports_every_chapter_with_pages_in_natural_order(tmp_path, engine, media):
    # Given a series folder with archives 1, 2 and 10.5 whose entries are named 1..12
    src = tmp_path / "src" / "進撃の巨人"
    for seed, name in enumerate(
        ["進撃の巨人 第1話.cbz", "進撃の巨人 第2話.cbz", "進撃の巨人 第10.5話.cbz"]
    ):
        write_cbz(
            src / name, {f"{i}.png": image_bytes((i * 20, seed * 40, 0)) for i in (12, 2, 1, 10)}
        )
    # When it is imported
    report = import_source(tmp_path / "src", engine=engine, media=media)
    # Then every chapter is there with its pages in natural order
    assert report.ok and len(report.imported) == 3
    assert chapter_rows(engine) == [
        ("進撃の巨人", 100, 4),
        ("進撃の巨人", 200, 4),
        ("進撃の巨人", 1050, 4),
    ]
    with Session(engine) as session:
        series = repository.get_series(session=session, slug="shingeki-no-kyojin")
        chapter = repository.get_chapter(session=session, series_slug=series.slug, number="10.5")
        pages = repository.pages_of(session=session, chapter_id=chapter.id)
        expected = [
            hashlib.sha256(image_bytes((i * 20, 80, 0))).hexdigest() for i in (1, 2, 10, 12)
        ]
        assert [p.media_key for p in pages] == expected
        assert all((p.width, p.height, p.ext) == (40, 60, "png") for p in pages)
        assert series.readings[0]["hiragana"] == "しんげきのきょじん"
        assert "shingeki" in series.search_text and "しんげき" in series.search_text
        assert (
            series.cover_key
            == repository.pages_of(
                session=session,
                chapter_id=repository.chapters_of(session=session, series_id=series.id)[0].id,
            )[0].media_key
        )
    assert_no_orphan_media(engine, media.root)


def test_comicinfo_metadata_fills_the_series_and_chapter(tmp_path, engine, media):
    xml = comicinfo_xml(
        Series="チェンソーマン",
        Number="12",
        Title="ニャーコの行方",
        Writer="藤本タツキ",
        Penciller="藤本タツキ",
        Genre="アクション, ホラー",
        Tags="悪魔",
        Summary="デンジの物語",
        LanguageISO="ja",
        Manga="YesAndRightToLeft",
        Year="2019",
        Month="3",
        Day="4",
    )
    _cbz(tmp_path / "src" / "whatever" / "file.cbz", comicinfo=xml)
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.ok, report.failed
    with Session(engine) as session:
        series = session.exec(select(Series)).one()
        chapter = session.exec(select(Chapter)).one()
        assert (series.title, series.slug, series.direction, series.language) == (
            "チェンソーマン",
            "chensooman",
            "rtl",
            "ja",
        )
        assert series.authors == ["藤本タツキ"] and series.artists == ["藤本タツキ"]
        assert series.summary == "デンジの物語"
        assert series.alt_titles == ["whatever"]  # the folder name is kept as an alias
        # Genres come from Genre only; Tags are kept apart on the series
        assert set(g for g, _ in repository.genre_totals(session=session)) == {
            "アクション",
            "ホラー",
        }
        assert series.tags == ["悪魔"]
        assert (chapter.number_hundredths, chapter.title) == (1200, "ニャーコの行方")
        assert chapter.published_at == datetime(2019, 3, 4, tzinfo=UTC)
        assert series.updated_at == chapter.published_at and series.updated_at.tzinfo is not None


def test_a_mylar_series_json_sidecar_names_the_series_and_gives_summary_and_status(
    tmp_path, engine, media
):
    folder = tmp_path / "src" / "american vampire folder"
    _cbz(folder / "American Vampire 1976 001.cbz")
    shutil.copy(FIXTURES / "mylar" / "series.json", folder / "series.json")
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    with Session(engine) as session:
        series = session.exec(select(Series)).one()
        assert series.title == "American Vampire 1976"
        assert series.summary.startswith("Nine issue mini-series")
        assert series.status == "ongoing"


def test_a_cover_image_in_the_series_folder_becomes_the_cover(tmp_path, engine, media):
    folder = tmp_path / "src" / "Series"
    _cbz(folder / "Series 1.cbz")
    cover = image_bytes((9, 9, 9), size=(400, 600), fmt="JPEG")
    (folder / "cover.jpg").write_bytes(cover)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    with Session(engine) as session:
        assert session.exec(select(Series)).one().cover_key == hashlib.sha256(cover).hexdigest()
    assert_no_orphan_media(engine, media.root)


def test_a_folder_of_images_is_one_chapter(tmp_path, engine, media):
    write_folder(
        tmp_path / "src" / "Series" / "Chapter 7",
        {"2.jpg": image_bytes(fmt="JPEG"), "1.webp": image_bytes(fmt="WEBP")},
    )
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    assert chapter_rows(engine) == [("Series", 700, 2)]


def test_re_importing_skips_unchanged_chapters_and_replaces_changed_ones(tmp_path, engine, media):
    # Given an imported series of two chapters
    folder = tmp_path / "src" / "Series"
    _cbz(folder / "Series 1.cbz", seed=1)
    second = _cbz(folder / "Series 2.cbz", seed=2)
    first_report = import_source(tmp_path / "src", engine=engine, media=media)
    assert len(first_report.imported) == 2
    # When nothing changed, then a re-import skips everything and duplicates nothing
    again = import_source(tmp_path / "src", engine=engine, media=media)
    assert (len(again.imported), len(again.skipped), again.failed) == (0, 2, [])
    assert chapter_rows(engine) == [("Series", 100, 3), ("Series", 200, 3)]
    # When chapter 2 is replaced by an archive with other pages
    _cbz(second, pages=5, seed=9)
    touch_later(second)
    third = import_source(tmp_path / "src", engine=engine, media=media)
    # Then only it is re-imported, its page rows replaced, and its old media removed
    assert [p.name for p in third.imported] == ["Series 2.cbz"] and len(third.skipped) == 1
    assert chapter_rows(engine) == [("Series", 100, 3), ("Series", 200, 5)]
    with Session(engine) as session:
        assert session.exec(select(Series)).one().slug == "series"
        assert len(session.exec(select(Page)).all()) == 8
    assert_no_orphan_media(engine, media.root)


def test_the_slug_stays_stable_and_collisions_get_a_suffix(tmp_path, engine, media):
    _cbz(tmp_path / "src" / "Series" / "Series 1.cbz", seed=1)
    _cbz(tmp_path / "src" / "SERIES!" / "x 1.cbz", seed=2)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    with Session(engine) as session:
        assert sorted(session.exec(select(Series.slug))) == ["series", "series-2"]
    # A later chapter in a differently spelt folder matches by normalised title, not a new slug
    _cbz(tmp_path / "src" / "ＳＥＲＩＥＳ" / "Series 2.cbz", seed=3)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    with Session(engine) as session:
        assert sorted(session.exec(select(Series.slug))) == ["series", "series-2"]
    assert chapter_rows(engine) == [("SERIES!", 100, 3), ("Series", 100, 3), ("Series", 200, 3)]


def test_bad_inputs_fail_with_specific_messages_and_the_rest_is_imported(tmp_path, engine, media):
    # Given a source mixing good chapters with every kind of bad input
    src = tmp_path / "src"
    good = src / "Good"
    _cbz(good / "Good 1.cbz", seed=1)
    _cbz(good / "Good 12.cbz", seed=2)
    _cbz(good / "Good ch12.cbz", seed=3)  # duplicate number
    write_cbz(
        good / "Good 2.cbz", {"1.png": image_bytes(), "2.png": bomb_png()}
    )  # decompression bomb
    write_cbz(
        good / "Good 3.cbz", {"1.png": image_bytes((5, 5, 5)), "2.png": image_bytes()[:70]}
    )  # truncated page
    zip_bomb(good / "Good 4.cbz")
    write_cbz(good / "Good 5.cbz", {"1.png": image_bytes(), "../../escape.png": image_bytes()})
    write_cbz(good / "Good 6.cbz", {"Thumbs.db": b"x"}, comicinfo="<ComicInfo/>")  # no images
    (good / "Good 7.cbz").write_bytes(b"garbage")
    _cbz(
        good / "Good 8.cbz", seed=8, comicinfo="<ComicInfo><Series>Broken</Ser"
    )  # invalid XML: warning only
    for sample in ("rar5-encrypted.rar", "7zip-encrypted.7z", "zip-encrypted.zip"):
        shutil.copy(FIXTURES / "archives" / sample, good / f"Good 9 {sample}")
    # When it is imported
    report = import_source(src, engine=engine, media=media)
    failures = {path.name: message for path, message in report.failed}
    # Then each bad file has its own message naming the problem
    assert "duplicate chapter number 12 of 'Good'" in failures["Good ch12.cbz"]
    assert str(good.resolve() / "Good 12.cbz") in failures["Good ch12.cbz"]
    assert "decompression bomb" in failures["Good 2.cbz"] and "'2.png'" in failures["Good 2.cbz"]
    assert "corrupt image" in failures["Good 3.cbz"]
    assert "possible zip bomb" in failures["Good 4.cbz"]
    assert "unsafe entry name" in failures["Good 5.cbz"]
    assert "no page images" in failures["Good 6.cbz"]
    assert "not a comic archive" in failures["Good 7.cbz"]
    for sample in ("rar5-encrypted.rar", "7zip-encrypted.7z", "zip-encrypted.zip"):
        assert "encrypted" in failures[f"Good 9 {sample}"]
    assert len(failures) == 10
    [(warned, warning)] = report.warnings
    assert warned.name == "Good 8.cbz"
    assert warning.startswith("invalid ComicInfo.xml: unclosed token")
    assert warning.endswith("using names from the file name instead")
    # And the good ones (and the one with broken metadata, by its file name) are imported whole
    assert chapter_rows(engine) == [("Good", 100, 3), ("Good", 800, 3), ("Good", 1200, 3)]
    assert_no_orphan_media(engine, media.root)


def test_a_failure_in_the_database_step_removes_the_media_it_wrote(
    tmp_path, engine, media, monkeypatch
):
    from manga_app.catalogue import upsert

    _cbz(tmp_path / "src" / "Series" / "Series 1.cbz")

    def explode(**_kwargs):
        raise __import__("sqlalchemy").exc.OperationalError("INSERT", {}, Exception("disk full"))

    monkeypatch.setattr(upsert, "save_chapter", explode)
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert "database error" in report.failed[0][1]
    assert chapter_rows(engine) == []
    with Session(engine) as session:
        assert session.exec(select(Series)).all() == []
    assert_no_orphan_media(engine, media.root)


@pytest.mark.parametrize("layout", ["loose", "nested"])
def test_series_names_fall_back_to_file_names(tmp_path, engine, media, layout):
    path = (
        tmp_path / "src" / "Blue Period 003.cbz"
        if layout == "loose"
        else tmp_path / "src" / "Blue Period" / "003.cbz"
    )
    _cbz(path)
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    assert chapter_rows(engine) == [("Blue Period", 300, 3)]


def test_a_chapter_with_pages_we_cannot_read_fails_whole_and_junk_is_noted(tmp_path, engine, media):
    # Given the audit's archive (pages in formats we do not support) and one with junk beside its pages
    src = tmp_path / "src" / "S"
    names = ["001.png", "002.bmp", "003.tif", "004.jpeg", "005.heic", "006.JPG"]
    write_cbz(src / "S 1.cbz", {n: image_bytes(fmt="PNG") for n in names})
    write_cbz(
        src / "S 2.cbz",
        {"001.png": image_bytes((1, 1, 1)), "002.JPG": image_bytes((2, 2, 2), fmt="JPEG")},
        extra={"info.txt": b"x", "Thumbs.db": b"x", "__MACOSX/._001.png": b"x", "other.xml": b"<x/>"},
    )
    write_cbz(src / "S 3.cbz", {}, extra={"readme.txt": b"x"})
    # When it is imported
    report = import_source(tmp_path / "src", engine=engine, media=media)
    failures = {path.name: message for path, message in report.failed}
    # Then chapter 1 is not imported at all, and the message names the entries
    assert "002.bmp, 003.tif, 005.heic" in failures["S 1.cbz"]
    # An archive without pages says what it holds
    assert failures["S 3.cbz"] == "no page images (JPEG, PNG, WebP, GIF or AVIF); it holds readme.txt"
    # Chapter 2 has both pages (upper-case extension included); the junk is a note
    assert chapter_rows(engine) == [("S", 200, 2)]
    [(noted, note)] = report.notes
    assert noted.name == "S 2.cbz"
    assert note == "skipped 4 entries that are not pages: info.txt, other.xml, Thumbs.db, __MACOSX/ (1 entry)"
    assert_no_orphan_media(engine, media.root)


def _pages_of(layout: str, seed: int) -> dict[str, bytes]:
    """Pages `N` (narrow) and `W` (wide: a spread), each with its own bytes."""
    sizes = {"N": (40, 60), "W": (120, 60)}
    return {f"{i + 1:02}.png": image_bytes((seed * 40 % 256, i * 20 % 256, 90), size=sizes[kind]) for i, kind in enumerate(layout)}


def _spread_offsets(engine) -> dict[int, bool]:
    with Session(engine) as session:
        return {c.number_hundredths: c.spread_offset for c in session.exec(select(Chapter))}


def test_each_chapter_stores_its_spread_offset_from_where_its_spreads_fall(tmp_path, engine, media):
    # Given chapters whose spread sits at an odd index after a single cover,
    # at an even index, and nowhere
    src = tmp_path / "src" / "見開き"
    for seed, (name, layout) in enumerate([("第1話.cbz", "NWNNN"), ("第2話.cbz", "NNWNN"), ("第3話.cbz", "NNNN")]):
        write_cbz(src / name, _pages_of(layout, seed))
    # When imported
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    # Then only the first needs its first page alone for the spread to start a pair
    assert _spread_offsets(engine) == {100: True, 200: False, 300: False}
    # An unchanged re-import keeps it; a changed chapter is worked out again
    write_cbz(src / "第2話.cbz", _pages_of("NNNWN", 7))
    touch_later(src / "第2話.cbz")
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.ok and len(report.imported) == 1
    assert _spread_offsets(engine) == {100: True, 200: True, 300: False}
