"""The plan of staged uploads, by the importer's own rules, against a
catalogue the real importer filled."""

from __future__ import annotations

from pathlib import Path

import pytest

from manga_app.catalogue import placements
from manga_app.catalogue.importer import import_source
from manga_app.uploads.plan import PlannedFile, plan_staged
from tests.unit.catalogue.builders import comicinfo_xml, distinct_pages, write_cbz, write_folder


def _pages(seed: int) -> dict[str, bytes]:
    return {f"{i:03}.png": data for i, data in enumerate(distinct_pages(2, seed=seed), 1)}


def test_the_plan_says_new_joins_conflict_and_refused(tmp_path: Path, engine, media):
    library = tmp_path / "library"
    write_cbz(library / "ワンダー探偵" / "ワンダー探偵 第1話.cbz", _pages(1))
    assert import_source(library, engine=engine, media=media, workers=1).imported

    staged = tmp_path / "staged"
    write_cbz(staged / "ワンダー探偵" / "ワンダー探偵 第2話.cbz", _pages(2))
    write_cbz(staged / "ワンダー探偵" / "ワンダー探偵 第1話 修正版.cbz", _pages(3))
    write_cbz(staged / "星の庭 第1話.cbz", _pages(4))
    write_cbz(staged / "extra.cbz", _pages(5), comicinfo=comicinfo_xml(Series="星の庭", Number="1"))
    write_folder(staged / "星の庭 第2話", _pages(6))
    (staged / "broken 第9話.cbz").write_bytes(b"not an archive")
    write_cbz(staged / "空 第1話.cbz", {"notes.txt": b"no pages here"})
    (staged / "readme.txt").write_text("hello")

    plan = {item.path: item for item in plan_staged(staged, engine)}

    assert plan["ワンダー探偵/ワンダー探偵 第2話.cbz"] == PlannedFile(
        "ワンダー探偵/ワンダー探偵 第2話.cbz", "joins", "ワンダー探偵", "chapter 2")
    conflict = plan["ワンダー探偵/ワンダー探偵 第1話 修正版.cbz"]
    assert (conflict.outcome, conflict.unit) == ("conflict", "chapter 1")
    assert conflict.reason.startswith("chapter 1 of ワンダー探偵 is already imported from ")
    # In the importer's order (natural, by path): extra.cbz claims 星の庭 chapter 1 first.
    assert plan["extra.cbz"] == PlannedFile("extra.cbz", "new", "星の庭", "chapter 1")
    assert plan["星の庭 第2話"] == PlannedFile("星の庭 第2話", "new", "星の庭", "chapter 2")
    twice = plan["星の庭 第1話.cbz"]
    assert (twice.outcome, twice.series, twice.reason) == ("conflict", "星の庭", "chapter 1 is also extra.cbz in this upload")
    assert plan["broken 第9話.cbz"].outcome == "refused"
    assert "not a comic archive" in plan["broken 第9話.cbz"].reason
    assert plan["空 第1話.cbz"] == PlannedFile("空 第1話.cbz", "refused", reason="no page images (JPEG, PNG, WebP, GIF or AVIF) in it")
    assert plan["readme.txt"].outcome == "refused" and "is not a comic" in plan["readme.txt"].reason
    assert len(plan) == 8


def test_nothing_staged_is_an_empty_plan(tmp_path: Path, engine):
    assert plan_staged(tmp_path / "none", engine) == []


def test_an_operators_placement_wins_over_the_names(tmp_path: Path, engine, media):
    library = tmp_path / "library"
    write_cbz(library / "ワンダー探偵" / "ワンダー探偵 第1話.cbz", _pages(1))
    import_source(library, engine=engine, media=media, workers=1)
    staged = tmp_path / "staged"
    write_cbz(staged / "ワンダー探偵 第1話 修正版.cbz", _pages(2), comicinfo=comicinfo_xml(Series="ワンダー探偵", Number="1"))
    write_cbz(staged / "unnamed.cbz", _pages(3))
    placements.write(staged, {"ワンダー探偵 第1話 修正版.cbz": placements.make("ワンダー探偵", "chapter", "1.5"),
                              "unnamed.cbz": placements.make("白い街", "volume", "2")})

    plan = {item.path: item for item in plan_staged(staged, engine)}

    assert plan["ワンダー探偵 第1話 修正版.cbz"] == PlannedFile(
        "ワンダー探偵 第1話 修正版.cbz", "joins", "ワンダー探偵", "chapter 1.5", edited=True)
    assert plan["unnamed.cbz"] == PlannedFile("unnamed.cbz", "new", "白い街", "volume 2", edited=True)


@pytest.mark.parametrize(("series", "kind", "number", "message"), [
    ("", "chapter", "1", "Give the series' title"),
    ("x", "episode", "1", "Choose chapter or volume."),
    ("x", "chapter", "one", "'one' is not a chapter number"),
    ("x", "volume", "-2", "'-2' is not a volume number"),
])
def test_a_placement_that_is_not_one_is_refused(series, kind, number, message):
    with pytest.raises(ValueError, match=message):
        placements.make(series, kind, number)
