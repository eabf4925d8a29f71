"""Precedence of chapter metadata: ComicInfo.xml, then series.json, then folder and file names."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from manga_app.catalogue.comicinfo import ComicInfo, SeriesSidecar
from manga_app.catalogue.planning import PlanError, plan_chapter, read_comicinfo
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
    with pytest.raises(PlanError, match="no chapter number"):
        plan_chapter(_candidate("/s/F/extras.cbz", "/s/F"), ComicInfo(), None, file_time=FILE_TIME, warn=print)


def test_unreadable_comicinfo_warns_and_gives_empty_metadata():
    warnings: list[str] = []
    assert read_comicinfo(b"<ComicInfo>", warnings.append) == ComicInfo()
    assert warnings[0].startswith("invalid ComicInfo.xml")
