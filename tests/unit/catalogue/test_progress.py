"""What an operator sees during an import whose output is not a terminal (a log, cron)."""

from __future__ import annotations

from pathlib import Path

from manga_app.catalogue import progress
from manga_app.catalogue.cli import main

from .builders import distinct_pages, write_cbz


def test_plain_progress_lines_with_time_left_and_failures_as_they_happen(
    tmp_path: Path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(progress, "PLAIN_EVERY_SECONDS", 0.0)  # a line per event
    series = tmp_path / "src" / "S"
    for number in (1, 3):
        write_cbz(series / f"S {number}.cbz", {"1.png": distinct_pages(1, seed=number)[0]})
    (series / "S 2.cbz").write_bytes(b"garbage")
    code = main(["import", str(tmp_path / "src"), "--db", f"sqlite:///{tmp_path / 'a.db'}",
                 "--no-publish"])  # fmt: skip
    captured = capsys.readouterr()
    assert code == 1
    lines = captured.err.splitlines()
    progress_lines = [line for line in lines if line.startswith("Importing: ")]
    assert progress_lines[0].startswith("Importing: 0/3 chapters")
    assert any("about " in line and " left" in line for line in progress_lines)
    assert progress_lines[-1].startswith("Importing: 3/3 chapters")
    failed = f"FAILED  {(series / 'S 2.cbz').resolve()}: not a comic archive"
    # The failure is shown as it happens (before the last chapter is done) and again at the end
    [at] = [index for index, line in enumerate(lines) if line.startswith(failed)]
    assert at < lines.index(progress_lines[-1])
    assert failed in captured.out and "failed: 1" in captured.out
