"""ComicInfo.xml and Mylar series.json parsing, including Komga's real samples."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from manga_app.catalogue.comicinfo import MetadataError, parse_comicinfo, parse_series_json

from .builders import FIXTURES, comicinfo_xml


def test_all_used_comicinfo_fields_are_read():
    # Given a ComicInfo.xml with every field the catalogue uses
    xml = comicinfo_xml(
        Series="進撃の巨人",
        Number="10.5",
        Title="決戦",
        Writer="諫山創, 別人",
        Penciller="諫山創",
        Genre="アクション, ダーク",
        Tags="巨人",
        Summary="あらすじ",
        LanguageISO="ja",
        Manga="YesAndRightToLeft",
        Year="2009",
        Month="9",
        Day="9",
    )
    # When it is parsed
    info = parse_comicinfo(xml.encode())
    # Then each field is there, typed
    assert (info.series, info.number, info.title) == ("進撃の巨人", "10.5", "決戦")
    assert info.writers == ["諫山創", "別人"] and info.pencillers == ["諫山創"]
    assert info.genres == ["アクション", "ダーク"] and info.tags == ["巨人"]
    assert (info.summary, info.language, info.manga) == ("あらすじ", "ja", "yes_rtl")
    assert info.direction == "rtl"
    assert info.published_at == datetime(2009, 9, 9, tzinfo=UTC)


def test_komga_dated_sample_gives_a_utc_publication_date_and_left_to_right():
    info = parse_comicinfo((FIXTURES / "comicinfo" / "ComicInfo_dated.xml").read_bytes())
    assert info.series == "Sandman"
    assert info.published_at == datetime(2018, 10, 30, tzinfo=UTC)
    assert info.published_at.tzinfo is UTC
    assert info.manga == "no" and info.direction == "ltr"
    assert "Fantasy" in info.genres


def test_invalid_enum_values_are_ignored_not_errors():
    info = parse_comicinfo((FIXTURES / "comicinfo" / "InvalidEnumValues.xml").read_bytes())
    assert info.manga is None and info.direction is None


def test_a_partial_comicinfo_leaves_missing_fields_empty():
    info = parse_comicinfo((FIXTURES / "comicinfo" / "ComicInfo_StoryArc.xml").read_bytes())
    assert info.series is None and info.number is None and info.published_at is None


def test_webtoon_format_means_vertical_reading():
    assert parse_comicinfo(comicinfo_xml(Format="Webtoon").encode()).direction == "vertical"


@pytest.mark.parametrize(
    "xml",
    [
        b"<ComicInfo><Series>Broken</Ser",
        b"not xml at all",
        b"<Other/>",
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><ComicInfo><Title>&a;</Title></ComicInfo>',
    ],
)
def test_unreadable_or_hostile_xml_raises_metadata_error(xml):
    with pytest.raises(MetadataError, match="invalid ComicInfo.xml"):
        parse_comicinfo(xml)


def test_mylar_series_json_gives_name_summary_and_status():
    sidecar = parse_series_json((FIXTURES / "mylar" / "series.json").read_bytes())
    assert sidecar.name == "American Vampire 1976"
    assert sidecar.summary.startswith("Nine issue mini-series")
    assert sidecar.status == "ongoing" and sidecar.year == 2020


def test_mylar_series_json_without_status_leaves_it_unknown():
    sidecar = parse_series_json((FIXTURES / "mylar" / "series-missing-status.json").read_bytes())
    assert sidecar.name == "Usagi Yojimbo" and sidecar.status is None and sidecar.summary is None


def test_a_broken_series_json_raises_metadata_error():
    with pytest.raises(MetadataError, match="invalid series.json"):
        parse_series_json(b'{"version": "1.0.1"')


def test_localized_and_alternate_series_are_aliases_once_and_never_the_title():
    info = parse_comicinfo(
        comicinfo_xml(
            Series="進撃の巨人",
            LocalizedSeries="Attack on Titan",
            AlternateSeries="Shingeki no Kyojin",
        ).encode()
    )
    assert (info.localized_series, info.alternate_series) == (
        "Attack on Titan",
        "Shingeki no Kyojin",
    )
    assert info.aliases == ("Attack on Titan", "Shingeki no Kyojin")


@pytest.mark.parametrize(
    ("fields", "aliases"),
    [
        ({"Series": "Blue Period", "LocalizedSeries": "ブルーピリオド", "AlternateSeries": "ブルーピリオド"}, ("ブルーピリオド",)),
        ({"Series": "Blue Period", "AlternateSeries": "ＢＬＵＥ  period"}, ()),  # the title, spelt otherwise
        ({"Series": "Blue Period", "LocalizedSeries": "blue period"}, ()),
        ({"AlternateSeries": "Alt"}, ("Alt",)),
        ({"Series": "Blue Period"}, ()),
    ],
)
def test_aliases_are_deduplicated_and_exclude_the_series_title(fields, aliases):
    assert parse_comicinfo(comicinfo_xml(**fields).encode()).aliases == aliases
