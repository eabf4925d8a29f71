"""The scanner lists chapter candidates and groups them into series without opening files."""

from __future__ import annotations

from pathlib import Path

from manga_app.catalogue.scanner import scan


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


def test_unsupported_archive_formats_are_still_candidates_so_they_can_be_refused(tmp_path: Path):
    for name in ("a.rar", "b.7z", "c.cbr", "d.epub", "e.pdf"):
        (tmp_path / name).write_bytes(b"x")
    assert sorted(c.path.name for c in scan(tmp_path)) == ["a.rar", "b.7z", "c.cbr", "d.epub"]


def test_loose_archives_in_the_source_root_have_no_series_folder(tmp_path: Path):
    (tmp_path / "Series 1.cbz").write_bytes(b"x")
    [candidate] = scan(tmp_path)
    assert candidate.series_dir is None


def test_a_single_archive_can_be_the_source(tmp_path: Path):
    archive = tmp_path / "Series 1.cbz"
    archive.write_bytes(b"x")
    assert [c.path for c in scan(archive)] == [archive.resolve()]
