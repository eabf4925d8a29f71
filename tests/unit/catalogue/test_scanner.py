"""The scanner lists chapter candidates and groups them into series without opening files."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from manga_app.catalogue.comicinfo import ComicInfo
from manga_app.catalogue.planning import plan_chapter
from manga_app.catalogue.scanner import SourceError, entry_kind, scan


def test_archives_and_image_folders_are_found_in_natural_order_with_their_series_folder(
    tmp_path: Path,
):
    # Given a series folder with archives named 2 and 10, a folder chapter, a sidecar and a cover
    series = tmp_path / "Series"
    for name in ("Series 10.cbz", "Series 2.cbz", "notes.txt", "cover.jpg", "series.json"):
        (series / name).parent.mkdir(parents=True, exist_ok=True)
        (series / name).write_bytes(b"not opened")
    (series / "Series 3").mkdir()
    (series / "Series 3" / "1.png").write_bytes(b"not opened either")
    # When it is scanned
    found = scan(tmp_path)
    # Then chapters come in natural order, with the series folder, sidecar and cover attached
    assert [c.path.name for c in found] == ["Series 2.cbz", "Series 3", "Series 10.cbz"]
    assert [c.kind for c in found] == ["archive", "folder", "archive"]
    assert {c.series_dir for c in found} == {series.resolve()}
    assert {c.sidecar.name for c in found} == {"series.json"}
    assert {c.cover.name for c in found} == {"cover.jpg"}


def test_every_book_format_is_a_candidate_and_other_files_are_strays(tmp_path: Path):
    for name in ("a.rar", "b.7z", "c.cbr", "d.epub", "e.pdf", "f.txt"):
        (tmp_path / name).write_bytes(b"x")
    strays: list[Path] = []
    found = scan(tmp_path, strays=strays)
    assert sorted(c.path.name for c in found) == ["a.rar", "b.7z", "c.cbr", "d.epub", "e.pdf"]
    assert [path.name for path in strays] == ["f.txt"]


def test_loose_archives_in_the_source_root_have_no_series_folder(tmp_path: Path):
    (tmp_path / "Series 1.cbz").write_bytes(b"x")
    [candidate] = scan(tmp_path)
    assert candidate.series_dir is None


def test_a_single_archive_can_be_the_source(tmp_path: Path):
    archive = tmp_path / "Series 1.cbz"
    archive.write_bytes(b"x")
    assert [c.path for c in scan(archive)] == [archive.resolve()]


def _layout(root: Path, files: list[str]) -> None:
    for name in files:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"never opened by the scanner")


def _series_titles(source: Path, library: Path) -> dict[str, str]:
    """chapter path (relative to the library) -> the series title names alone give it."""
    titles = {}
    for candidate in scan(source):
        plan = plan_chapter(candidate, ComicInfo(), None, file_time=FILE_TIME, warn=print)
        titles[candidate.path.relative_to(library.resolve()).as_posix()] = plan.series_title
    return titles


FILE_TIME = datetime(2025, 1, 1, tzinfo=UTC)


W = "ワンダー探偵"


@pytest.mark.parametrize(
    ("files", "source", "expected"),
    [
        # The audit's layout: volume and chapter folders are never series
        (
            [f"{W}/Vol 1/Chapter 1/001.webp", f"{W}/Vol 2/Chapter 9/001.webp"],
            "",
            {f"{W}/Vol 1/Chapter 1": W, f"{W}/Vol 2/Chapter 9": W},
        ),
        (
            [f"{W}/第1巻/{W} 第3話.cbz", f"{W}/Volume 02/012.cbz"],
            "",
            {f"{W}/第1巻/{W} 第3話.cbz": W, f"{W}/Volume 02/012.cbz": W},
        ),
        (["S/v01/c001/1.png", "S/v01/c002/1.png"], "", {"S/v01/c001": "S", "S/v01/c002": "S"}),
        # A series folder of image-folder chapters, and volume folders of images
        (
            ["Blue Box/第1話/1.jpg", "Blue Box/第2話/1.jpg"],
            "",
            {"Blue Box/第1話": "Blue Box", "Blue Box/第2話": "Blue Box"},
        ),
        (["Blue Box/Vol 1/1.jpg"], "", {"Blue Box/Vol 1": "Blue Box"}),
        # A volume folder that names its series, directly in the source
        ([f"{W} 第1巻/Chapter 1/1.png"], "", {f"{W} 第1巻/Chapter 1": W}),
        # The source is the series folder (no sidecar): chapters inside volume folders
        ([f"{W}/Vol 1/Chapter 1/1.png"], W, {f"{W}/Vol 1/Chapter 1": W}),
        # The source is a volume folder: the series is the folder above it
        ([f"{W}/Vol 1/Chapter 1/1.png"], f"{W}/Vol 1", {f"{W}/Vol 1/Chapter 1": W}),
        # Loose archives in the source: named from their file names, not from the source folder
        (
            ["Blue Period 003.cbz", f"{W} 第4話.cbz"],
            "",
            {"Blue Period 003.cbz": "Blue Period", f"{W} 第4話.cbz": W},
        ),
        # Series names with digits stay series
        (
            ["Mob Psycho 100/Mob Psycho 100 005.cbz", "Level 99/Vol 1/1.png"],
            "",
            {"Level 99/Vol 1": "Level 99", "Mob Psycho 100/Mob Psycho 100 005.cbz": "Mob Psycho 100"},
        ),
    ],
)
def test_volume_and_chapter_folders_never_name_a_series(tmp_path: Path, files, source, expected):
    library = tmp_path / "library"
    _layout(library, files)
    assert _series_titles(library / source, library) == expected


def test_the_media_store_published_files_and_hidden_folders_are_never_scanned(tmp_path: Path):
    # Given a data folder as `make import` with no SRC would have scanned it
    _layout(
        tmp_path,
        [
            "media/00/" + "0" * 64 + ".png",
            "media/ff/" + "f" * 64 + "-w1200.webp",
            "published/manifests/x/1.json",
            ".cache/thumb.png",
            "series/Series 1.cbz",
        ],
    )
    found = scan(tmp_path, skip=[tmp_path / "media", tmp_path / "published"])
    assert [c.path.name for c in found] == ["Series 1.cbz"]
    # A source inside the media store is refused outright
    with pytest.raises(SourceError, match="inside"):
        scan(tmp_path / "media" / "00", skip=[tmp_path / "media"])


def test_a_folder_of_unsupported_images_is_still_a_chapter_so_it_can_be_refused(tmp_path: Path):
    _layout(tmp_path, ["S/ch 1/1.bmp", "S/cover.png", "S/readme.txt"])
    assert [c.path.name for c in scan(tmp_path)] == ["ch 1"]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("001.png", "page"), ("006.JPG", "page"), ("a/b/004.jpeg", "page"), ("p.WebP", "page"),
        ("p.gif", "page"), ("002.bmp", "unsupported"), ("003.tif", "unsupported"),
        ("p.TIFF", "unsupported"), ("005.avif", "page"), ("p.heic", "unsupported"),
        ("p.jxl", "unsupported"), ("p.psd", "unsupported"), ("p.svg", "unsupported"),
        ("ComicInfo.xml", "metadata"), ("sub/comicinfo.XML", "metadata"), ("series.json", "metadata"),
        ("info.txt", "other"), ("release.nfo", "other"), ("link.url", "other"),
        ("Thumbs.db", "other"), (".DS_Store", "other"), ("data.json", "other"),
        ("other.xml", "other"), ("__MACOSX/._001.png", "other"), (".hidden.png", "other"),
    ],
)
def test_entries_are_classified_by_name(name: str, kind: str):
    assert entry_kind(name) == kind
