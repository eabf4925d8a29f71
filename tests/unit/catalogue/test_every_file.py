"""No file under SRC is left out silently: imported, skipped as unchanged, or named with a reason."""

from __future__ import annotations

from pathlib import Path

from manga_app.catalogue.cli import main
from manga_app.catalogue.importer import import_source

from .builders import distinct_pages, write_cbz, write_folder


def _accounted(report) -> set[str]:
    named = {path.name for path, _ in [*report.failed, *report.notes]}
    return named | {path.name for path in [*report.imported, *report.skipped]}


def test_every_file_is_imported_or_named_with_its_reason(tmp_path: Path, engine, media):
    # Given a series folder with a chapter, its cover and sidecar, a PDF, and odd files
    series = tmp_path / "src" / "作品"
    write_cbz(series / "作品 第1話.cbz", {"1.png": distinct_pages(1)[0]})
    write_folder(series, {"cover.png": distinct_pages(1, seed=3)[0]})
    (series / "series.json").write_text('{"metadata": {"name": "作品"}}')
    (series / "作品 第2話.pdf").write_bytes(b"%PDF-1.4 not really")
    (series / "notes.txt").write_text("read me")
    (series / "extras").mkdir()
    (series / "extras" / "scan.docx").write_bytes(b"PK")
    # When it is imported
    report = import_source(tmp_path / "src", engine=engine, media=media)
    # Then the chapter is in, and each other file is named with why it is not
    assert [path.name for path in report.imported] == ["作品 第1話.cbz"]
    notes = {path.name: message for path, message in report.notes}
    assert notes["notes.txt"].startswith("not imported: a .txt file is not a comic")
    assert notes["scan.docx"].startswith("not imported: a .docx file is not a comic")
    assert "作品 第2話.pdf" in _accounted(report)
    assert _accounted(report) >= {"作品 第1話.cbz", "作品 第2話.pdf", "notes.txt", "scan.docx"}


def test_a_source_with_no_comics_exits_2_and_names_what_it_holds(
    tmp_path: Path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "readme.txt").write_text("nothing here")
    assert main(["import", str(tmp_path / "src"), "--db", f"sqlite:///{tmp_path / 'a.db'}"]) == 2
    captured = capsys.readouterr()
    assert "no comics found in" in captured.err
    assert "readme.txt: not imported: a .txt file is not a comic" in captured.out
    # And a folder with nothing at all exits 2 too
    (tmp_path / "empty").mkdir()
    assert main(["import", str(tmp_path / "empty"), "--db", f"sqlite:///{tmp_path / 'a.db'}"]) == 2
