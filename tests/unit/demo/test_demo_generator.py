"""End-to-end checks of a small generated demo library (first six series).

One library is generated per module (a couple of seconds) and inspected the
way an importer would: as ZIP archives with ComicInfo.xml and series.json.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from pathlib import Path

import pytest
from PIL import Image

from manga_app.demo import CJKFontNotFoundError, generate_demo_library, plan_library
from manga_app.demo import drawing
from manga_app.demo.__main__ import main
from manga_app.demo.catalogue_data import CATALOGUE
from manga_app.demo.generator import safe_filename

NOW = datetime(2026, 3, 15, 12, 0, 0, tzinfo=timezone.utc)
SERIES = 6
GENRES = {
    "アクション", "恋愛", "ファンタジー", "コメディ", "ホラー", "スポーツ",
    "日常", "SF", "ミステリー", "歴史", "グルメ", "学園",
}
MYLAR_KEYS = {
    "type", "publisher", "imprint", "name", "comicid", "year", "description_text", "description_formatted",
    "volume", "booktype", "age_rating", "collects", "ComicImage", "total_issues", "publication_run", "status",
}
PAGE_NAME = re.compile(r"^(\d{3})\.(jpg|png)$")


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("demo")
    return out, generate_demo_library(out, series_count=SERIES, seed=7, now=NOW)


def _comicinfo(path: Path) -> ET.Element:
    with zipfile.ZipFile(path) as archive:
        return ET.fromstring(archive.read("ComicInfo.xml"))


def _pages(archive: zipfile.ZipFile) -> list[str]:
    return [name for name in archive.namelist() if name != "ComicInfo.xml"]


def test_layout_one_folder_per_series(library):
    out, paths = library
    expected = sum(s.chapter_total for s in CATALOGUE[:SERIES])
    assert len(paths) == expected == len(set(paths))
    assert sorted(p.name for p in out.iterdir()) == sorted(safe_filename(s.title) for s in CATALOGUE[:SERIES])
    for path in paths:
        assert path.is_file() and path.parent.parent == out
        assert re.fullmatch(re.escape(path.parent.name) + r" 第\d{3}(\.\d+)?話\.cbz", path.name)
        assert (path.parent / "series.json").is_file()
    assert not list(out.rglob("*.tmp"))


def test_archives_hold_naturally_numbered_images(library):
    _, paths = library
    for path in paths:
        with zipfile.ZipFile(path) as archive:
            assert archive.testzip() is None
            assert all(info.compress_type == zipfile.ZIP_DEFLATED for info in archive.infolist())
            names = _pages(archive)
            numbers = [int(PAGE_NAME.match(name).group(1)) for name in names]
            assert numbers == list(range(1, len(names) + 1))
            assert names[0] == "001.jpg"  # colour cover: always JPEG
            for name in names:
                image = Image.open(io.BytesIO(archive.read(name)))
                image.load()
                assert image.format == ("JPEG" if name.endswith(".jpg") else "PNG")


def test_comicinfo_fields(library):
    _, paths = library
    by_title = {s.title: s for s in CATALOGUE}
    for path in paths:
        root = _comicinfo(path)
        text = {child.tag: (child.text or "") for child in root if child.tag != "Pages"}
        series = by_title[text["Series"]]
        assert text["LocalizedSeries"] == series.romaji
        assert text.get("AlternateSeries") == series.nickname
        assert re.fullmatch(r"\d+(\.\d+)?", text["Number"])
        assert text["Title"] and text["Writer"] == series.writer and text["Penciller"] == series.penciller
        assert set(text["Genre"].split(", ")) <= GENRES
        assert text["Tags"] and text["Summary"] == series.summary
        assert text["LanguageISO"] == "ja"
        assert text["Manga"] == ("No" if series.style == "webtoon" else "YesAndRightToLeft")
        assert text.get("Format") == ("Webtoon" if series.style == "webtoon" else None)
        published = datetime(int(text["Year"]), int(text["Month"]), int(text["Day"]), tzinfo=timezone.utc)
        mtime = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
        assert published.date() == mtime.date()
        assert mtime.strftime("%Y-%m-%dT%H:%M:%SZ") in text["Notes"]
        assert ("Count" in text) == (series.status == "completed")

        pages = root.find("Pages")
        assert pages is not None
        page_elements = list(pages)
        assert int(text["PageCount"]) == len(page_elements)
        assert page_elements[0].get("Type") == "FrontCover"
        with zipfile.ZipFile(path) as archive:
            names = _pages(archive)
            assert len(names) == len(page_elements)
            for element, name in zip(page_elements, names, strict=True):
                image = Image.open(io.BytesIO(archive.read(name)))
                assert int(element.get("ImageSize")) == archive.getinfo(name).file_size
                assert (int(element.get("ImageWidth")), int(element.get("ImageHeight"))) == image.size
                if element.get("DoublePage") == "True":
                    assert image.width > image.height


def test_webtoon_pages_are_tall_and_spreads_are_wide(library):
    _, paths = library
    spreads = 0
    for path in paths:
        manga = _comicinfo(path).findtext("Manga")
        with zipfile.ZipFile(path) as archive:
            sizes = [Image.open(io.BytesIO(archive.read(name))).size for name in _pages(archive)]
        if manga == "No":
            assert all(h >= 3 * w for w, h in sizes)
        else:
            assert sizes[0] == (720, 1024)
            spreads += sum(w > h for w, h in sizes)
    assert spreads >= 1


def test_covers_are_in_colour_with_distinct_hues(library):
    _, paths = library
    means = {}
    for path in paths:
        with zipfile.ZipFile(path) as archive:
            cover = Image.open(io.BytesIO(archive.read("001.jpg")))
            assert cover.mode == "RGB"
            if path.parent.name not in means:
                means[path.parent.name] = cover.resize((1, 1)).getpixel((0, 0))
    assert len(set(means.values())) == len(means)


def test_series_json_is_mylar_shaped(library):
    out, paths = library
    for folder in out.iterdir():
        document = json.loads((folder / "series.json").read_text(encoding="utf-8"))
        assert document["version"] == "1.0.2"
        metadata = document["metadata"]
        assert set(metadata) == MYLAR_KEYS
        assert metadata["type"] == "comicSeries" and metadata["booktype"] == "Print"
        assert metadata["name"] == folder.name
        assert metadata["status"] in ("Continuing", "Ended")
        assert metadata["total_issues"] == sum(p.parent == folder for p in paths)
        assert metadata["collects"] == [] and metadata["ComicImage"] is None
        series = next(s for s in CATALOGUE if s.title == metadata["name"])
        assert metadata["status"] == ("Ended" if series.status == "completed" else "Continuing")
        assert metadata["publication_run"].endswith("Present") == (series.status == "ongoing")


def test_same_seed_gives_identical_files(library, tmp_path):
    out, paths = library
    again = generate_demo_library(tmp_path, series_count=3, seed=7, now=NOW, workers=1)
    first = [p for p in paths if p.parent.name in {q.parent.name for q in again}]
    assert [p.relative_to(tmp_path) for p in again] == [p.relative_to(out) for p in first]
    for mine, theirs in zip(again, first, strict=True):
        assert mine.read_bytes() == theirs.read_bytes()  # ComicInfo, pages and ZIP headers
    for folder in {p.parent for p in again}:
        assert (folder / "series.json").read_bytes() == (out / folder.name / "series.json").read_bytes()


def test_other_seed_changes_content(library, tmp_path):
    out, _ = library
    other = generate_demo_library(tmp_path, series_count=1, seed=8, now=NOW, workers=1)
    with zipfile.ZipFile(other[0]) as archive:
        theirs = archive.read("ComicInfo.xml")
    mine_path = out / other[0].parent.name / other[0].name
    with zipfile.ZipFile(mine_path) as archive:
        assert archive.read("ComicInfo.xml") != theirs


def test_jpeg_only_mode(tmp_path):
    paths = generate_demo_library(tmp_path, series_count=1, now=NOW, workers=1, image_format="jpeg")
    with zipfile.ZipFile(paths[0]) as archive:
        assert all(name.endswith(".jpg") for name in _pages(archive))
    with pytest.raises(ValueError):
        generate_demo_library(
            tmp_path, series_count=1, now=NOW, image_format="webp"  # type: ignore[arg-type]
        )


def test_plan_matches_generated_library(library):
    out, paths = library
    planned = [c for sp in plan_library(now=NOW, series_count=SERIES) for c in sp.chapters]
    assert [_comicinfo(p).findtext("Number") for p in paths] == [c.number for c in planned]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("星降る街の配達人", "星降る街の配達人"),
        ("誰が/カレーを: 焦がした?", "誰が／カレーを： 焦がした？"),
        ("a\x00b\x1fc. ", "abc"),
        ("..", "_"),
        ("あ" * 200, "あ" * 66),
    ],
)
def test_safe_filename(name, expected):
    assert safe_filename(name) == expected


def test_missing_cjk_font_gives_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(drawing, "_FONT_DIRS", (tmp_path,))
    drawing.find_cjk_font.cache_clear()
    try:
        with pytest.raises(CJKFontNotFoundError, match="fonts-noto-cjk"):
            generate_demo_library(tmp_path / "out", series_count=1, now=NOW)
    finally:
        drawing.find_cjk_font.cache_clear()


def test_cli(tmp_path, capsys):
    argv = [str(tmp_path), "--series", "1", "--seed", "3", "--now", "2026-03-15T12:00:00Z", "--workers", "1"]
    assert main(argv) == 0
    assert "1 series" in capsys.readouterr().out
    assert len(list(tmp_path.rglob("*.cbz"))) == CATALOGUE[0].chapter_total
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--series", "0"])
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--now", "yesterday"])
