"""File-name fallback parsing, chapter numbers in hundredths, slugs and title keys."""

from __future__ import annotations

from decimal import Decimal

import pytest

from manga_app.catalogue.naming import (
    FolderRole,
    chapter_number_json,
    folder_role,
    format_chapter_number,
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
    assert format_chapter_number(hundredths) == text
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
    from manga_app import routes

    slug = slugify(text)
    assert slug == expected
    assert not routes.uses_reader_layout("/" + slug)


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
