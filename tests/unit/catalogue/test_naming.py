"""File-name fallback parsing, chapter numbers in hundredths, slugs and title keys."""

from __future__ import annotations

from decimal import Decimal

import pytest

from manga_app.catalogue.naming import (
    FolderRole,
    chapter_number_json,
    folder_role,
    format_hundredths,
    parse_chapter_name,
    slugify,
    title_key,
    to_hundredths,
)


@pytest.mark.parametrize(
    ("name", "series", "number", "volume", "title"),
    [
        ("Series Name 012", "Series Name", "12", None, None),
        ("Series Name - 012", "Series Name", "12", None, None),
        ("第12話", None, "12", None, None),
        ("進撃の巨人 第１２話 決戦", "進撃の巨人", "12", None, "決戦"),
        ("Vol.2 Ch.10.5", None, "10.5", "2", None),
        ("Series Name Vol.2 Ch.10.5 - The Title", "Series Name", "10.5", "2", "The Title"),
        ("Series Name v01 c003", "Series Name", "3", "1", None),
        ("[Group] Series Name 012 (2019)", "Series Name", "12", None, None),
        ("Chapter 5", None, "5", None, None),
        ("20th Century Boys 3", "20th Century Boys", "3", None, None),
        ("One Piece #1000", "One Piece", "1000", None, None),
        ("チェンソーマン 12話", "チェンソーマン", "12", None, None),
        ("Series_Name_c10.5", "Series Name", "10.5", None, None),
        ("第3巻", None, "3", "3", None),
        ("No Number Here", "No Number Here", None, None, None),
    ],
)
def test_file_and_folder_names_give_series_number_volume_and_title(
    name, series, number, volume, title
):
    parsed = parse_chapter_name(name)
    assert parsed.series == series
    assert parsed.number == (Decimal(number) if number else None)
    assert parsed.volume == (Decimal(volume) if volume else None)
    assert parsed.title == title


@pytest.mark.parametrize(
    ("value", "hundredths"),
    [("12", 1200), ("012", 1200), ("10.5", 1050), (10.5, 1050), (Decimal("0.25"), 25), (7, 700)],
)
def test_chapter_numbers_are_stored_as_exact_hundredths(value, hundredths):
    assert to_hundredths(value) == hundredths


@pytest.mark.parametrize("value", ["abc", "-1", "10.125", "nan", "1e9", ""])
def test_values_that_are_not_chapter_numbers_are_refused(value):
    with pytest.raises(ValueError):
        to_hundredths(value)


@pytest.mark.parametrize(
    ("hundredths", "text", "json_value"),
    [(1200, "12", 12), (1050, "10.5", 10.5), (1025, "10.25", 10.25), (0, "0", 0)],
)
def test_chapter_numbers_render_as_int_when_whole_and_float_otherwise(hundredths, text, json_value):
    assert format_hundredths(hundredths) == text
    assert chapter_number_json(hundredths) == json_value
    assert type(chapter_number_json(hundredths)) is type(json_value)


def test_slugs_are_ascii_and_title_keys_ignore_width_case_and_spacing():
    assert slugify("shingeki no kyojin") == "shingeki-no-kyojin"
    assert slugify("Café  au lait!") == "cafe-au-lait"
    assert slugify("進撃") == ""
    assert title_key("ＯＮＥ  Piece ") == title_key("one piece")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Watch-ch-2 story", "watch-ch2-story"), ("abc ch 12", "abc-ch12"), ("x-ch-1-ch-3", "x-ch1-ch3")],
    ids=["marker-inside", "spaces-become-a-marker-and-are-folded", "two-markers"],
)
def test_a_series_slug_never_contains_the_chapter_marker(text: str, expected: str) -> None:
    from manga_app.core import routes

    slug = slugify(text)
    assert slug == expected
    found = routes.match("/" + slug)
    assert found is None or found.kind is not routes.PageKind.READER


@pytest.mark.parametrize(
    ("name", "kind", "series"),
    [
        ("Vol 1", "volume", None),
        ("Vol.01", "volume", None),
        ("Volume 02", "volume", None),
        ("vol_3", "volume", None),
        ("v01", "volume", None),
        ("v3", "volume", None),
        ("第1巻", "volume", None),
        ("第１巻", "volume", None),
        ("1巻", "volume", None),
        ("[Group] Vol 3 (2019)", "volume", None),
        ("ワンダー探偵 第1巻", "volume", "ワンダー探偵"),
        ("ワンダー探偵 Vol.2 - 旅立ち", "volume", "ワンダー探偵"),
        ("Chapter 1", "chapter", None),
        ("Ch.10.5", "chapter", None),
        ("第3話", "chapter", None),
        ("Episode 4", "chapter", None),
        ("#12", "chapter", None),
        ("003", "chapter", None),
        ("ワンダー探偵 Vol 2 Chapter 9", "chapter", "ワンダー探偵"),
        ("ワンダー探偵", "series", None),
        ("20th Century Boys", "series", None),
        ("Level 99", "series", None),
        ("Mob Psycho 100", "series", None),
        ("V8 Racing", "series", None),
        ("Volcano", "series", None),
        ("100日後に死ぬワニ", "series", None),
    ],
)
def test_folder_names_say_whether_a_folder_is_a_series_a_volume_or_a_chapter(name, kind, series):
    assert folder_role(name) == FolderRole(kind, series)


@pytest.mark.parametrize(
    ("name", "kind", "number", "volume", "title", "series"),
    [
        ("第十二話", "chapter", "12", None, None, None),
        ("第三話", "chapter", "3", None, None, None),
        ("第百二十三話 決戦", "chapter", "123", None, "決戦", None),
        ("第二〇二話", "chapter", "202", None, None, None),
        ("三日月 第二十話", "chapter", "20", None, None, "三日月"),
        ("第一巻", "volume", "1", "1", None, None),
        ("１２話", "chapter", "12", None, None, None),
        ("作品名 第3巻 第12話", "chapter", "12", "3", None, "作品名"),
        ("Series v01 c001-005", "volume", "1", "1", "第1–5話", "Series"),
        ("第1-5話", "chapter", "1", None, "第1–5話", None),
        ("Chapter 5 - 2nd half", "chapter", "5", None, "2nd half", None),
        ("作品名 上巻", "volume", "1", "1", "上巻", "作品名"),
        ("作品名 中巻", "volume", "2", "2", "中巻", "作品名"),
        ("作品名 下巻", "volume", "3", "3", "下巻", "作品名"),
        ("第5話 前編", "chapter", "5", None, "前編", None),
        ("第5話 中編", "chapter", "5.25", None, "中編", None),
        ("第5話 後編", "chapter", "5.5", None, "後編", None),
        ("第5話 番外編", "chapter", "5.7", None, "番外編", None),
        ("第5話 特別編", "chapter", "5.8", None, "特別編", None),
        ("第5話 おまけ", "chapter", "5.9", None, "おまけ", None),
        ("第50話 最終話", "chapter", "50", None, "最終話", None),
        ("十二国記 第3巻", "volume", "3", "3", None, "十二国記"),
        ("Series v01", "volume", "1", "1", None, "Series"),
    ],
)
def test_japanese_unit_names_give_kind_number_and_title(name, kind, number, volume, title, series):
    parsed = parse_chapter_name(name)
    assert (parsed.kind, parsed.number, parsed.volume, parsed.title, parsed.series) == (
        kind,
        Decimal(number),
        Decimal(volume) if volume else None,
        title,
        series,
    )


@pytest.mark.parametrize(
    ("name", "after_last", "title"),
    [("最終話", "1", "最終話"), ("番外編", "0.7", "番外編"), ("おまけ2", "0.91", "おまけ2")],
)
def test_units_named_without_a_number_go_after_the_last_numbered_chapter(name, after_last, title):
    parsed = parse_chapter_name(name)
    assert (parsed.number, parsed.after_last, parsed.title) == (None, Decimal(after_last), title)


def test_parts_and_extras_of_one_chapter_never_collide():
    names = ["第5話 前編", "第5話 中編", "第5話 後編", "第5話 番外編", "第5話 特別編", "第5話 おまけ", "第6話"]
    numbers = [parse_chapter_name(name).number for name in names]
    assert numbers == sorted(set(numbers))


@pytest.mark.parametrize(
    ("text", "value"),
    [("十", 10), ("十二", 12), ("二十", 20), ("百", 100), ("百五", 105), ("三千十", 3010),
     ("二〇二", 202), ("一万二千", 12000), ("〇", 0)],
)  # fmt: skip
def test_kanji_numerals(text, value):
    from manga_app.catalogue.units import kanji_number

    assert kanji_number(text) == value


def test_kanji_numerals_are_only_numbers_beside_a_counter():
    assert parse_chapter_name("一人旅 第2話").series == "一人旅"
    assert folder_role("第一巻") == FolderRole("volume")
    assert folder_role("第十二話") == FolderRole("chapter")
