"""Precedence of chapter metadata: ComicInfo.xml, then series.json, then folder and file names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from manga_app.catalogue.comicinfo import ComicInfo, SeriesSidecar
from manga_app.catalogue.planning import PlanError, plan_chapter, publication_time, read_comicinfo
from manga_app.catalogue.scanner import Candidate

FILE_TIME = datetime(2024, 2, 3, 4, 5, tzinfo=UTC)


def _candidate(path: str, series_dir: str | None = None, kind: str = "archive") -> Candidate:
    return Candidate(
        path=Path(path),
        kind=kind,
        series_dir=Path(series_dir) if series_dir else None,
        sidecar=None,
        cover=None,
    )


@pytest.mark.parametrize(
    ("candidate", "info", "sidecar", "series", "number", "title"),
    [
        (_candidate("/s/Folder/Name 3.cbz", "/s/Folder"), ComicInfo(), None, "Folder", 300, ""),
        (_candidate("/s/Name 3 - Title.cbz"), ComicInfo(), None, "Name", 300, "Title"),
        (_candidate("/s/F/x 3.cbz", "/s/F"), ComicInfo(), SeriesSidecar(name="Side"), "Side", 300, ""),
        (
            _candidate("/s/F/x 3.cbz", "/s/F"),
            ComicInfo(series="CI", number="4.5", title="T"),
            SeriesSidecar(name="Side"),
            "CI",
            450,
            "T",
        ),
        (_candidate("/s/F/第7話", "/s/F", kind="folder"), ComicInfo(), None, "F", 700, ""),
    ],
)
def test_comicinfo_beats_sidecar_beats_names(candidate, info, sidecar, series, number, title):
    plan = plan_chapter(candidate, info, sidecar, file_time=FILE_TIME, warn=pytest.fail)
    assert (plan.series_title, plan.hundredths, plan.chapter_title) == (series, number, title)
    assert plan.published_at == FILE_TIME


def test_an_invalid_comicinfo_number_warns_and_falls_back_to_the_file_name():
    warnings: list[str] = []
    plan = plan_chapter(
        _candidate("/s/F/F 9.cbz", "/s/F"),
        ComicInfo(number="nine"),
        None,
        file_time=FILE_TIME,
        warn=warnings.append,
    )
    assert plan.hundredths == 900
    assert warnings == ["ComicInfo.xml Number ignored: not a chapter number: 'nine'"]


def test_no_number_anywhere_is_a_plan_error():
    with pytest.raises(PlanError, match="no chapter or volume number"):
        plan_chapter(_candidate("/s/F/extras.cbz", "/s/F"), ComicInfo(), None, file_time=FILE_TIME, warn=print)


def test_unreadable_comicinfo_warns_and_gives_empty_metadata():
    warnings: list[str] = []
    assert read_comicinfo(b"<ComicInfo>", warnings.append) == ComicInfo()
    assert warnings[0].startswith("invalid ComicInfo.xml")


DAY = datetime(2025, 3, 4, tzinfo=UTC)  # ComicInfo Year/Month/Day: midnight UTC


@pytest.mark.parametrize(
    ("mtime", "expected"),
    [
        (datetime(2025, 3, 4, 15, 42, 7, tzinfo=UTC), datetime(2025, 3, 4, 15, 42, 7, tzinfo=UTC)),
        (datetime(2025, 3, 4, 0, 0, tzinfo=UTC), datetime(2025, 3, 4, 0, 0, tzinfo=UTC)),
        (datetime(2025, 3, 4, 23, 59, 59, tzinfo=UTC), datetime(2025, 3, 4, 23, 59, 59, tzinfo=UTC)),
        (datetime(2025, 3, 5, 0, 10, tzinfo=UTC), DAY),  # the next day: copied or re-saved later
        (datetime(2025, 3, 3, 23, 59, tzinfo=UTC), DAY),
        (datetime(2024, 3, 4, 12, 0, tzinfo=UTC), DAY),
        # 00:30 in Tokyo on the 5th is 15:30 UTC on the 4th: the same UTC day
        (
            datetime(2025, 3, 5, 0, 30, tzinfo=timezone(timedelta(hours=9))),
            datetime(2025, 3, 4, 15, 30, tzinfo=UTC),
        ),
    ],
)
def test_the_mtime_gives_the_exact_time_when_it_falls_on_the_comicinfo_day(mtime, expected):
    result = publication_time(DAY, mtime)
    assert result == expected and result.utcoffset() == timedelta(0)
    plan = plan_chapter(
        _candidate("/s/F/F 1.cbz", "/s/F"),
        ComicInfo(published_at=DAY),
        None,
        file_time=mtime,
        warn=pytest.fail,
    )
    assert plan.published_at == expected


def test_without_a_comicinfo_date_the_mtime_is_the_publication_time():
    assert publication_time(None, FILE_TIME) == FILE_TIME


def test_localized_and_alternate_series_become_aliases_with_the_folder_name():
    plan = plan_chapter(
        _candidate("/s/Folder/x 1.cbz", "/s/Folder"),
        ComicInfo(series="進撃の巨人", localized_series="Attack on Titan", alternate_series="進撃"),
        None,
        file_time=FILE_TIME,
        warn=pytest.fail,
    )
    assert plan.facts.aliases == ("Attack on Titan", "進撃", "Folder")


@pytest.mark.parametrize(
    ("path", "number", "kind", "key"),
    [
        ("/s/F/F 第1巻.cbz", "1", "volume", 100_000_100),
        ("/s/F/F v02.cbz", "2", "volume", 100_000_200),
        ("/s/F/F 第1話.cbz", "1", "chapter", 100),
        ("/s/F/F.cbz", "3", "chapter", 300),
    ],
)
def test_a_volume_numbered_by_comicinfo_stays_a_volume(path, number, kind, key):
    plan = plan_chapter(_candidate(path, "/s/F"), ComicInfo(number=number), None, file_time=FILE_TIME, warn=pytest.fail)
    assert (plan.kind, plan.hundredths) == (kind, key)
