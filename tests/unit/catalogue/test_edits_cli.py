"""`remove`, `renumber` and `merge-series` from the operator's command line:
what --dry-run says, what the edit changes in the database, the media store
and the published files, and the refusals with their exit statuses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session, select

from manga_app.catalogue.cli import main
from manga_app.core.db import make_engine
from manga_app.catalogue.models import Chapter, Page, Series

from .builders import distinct_pages, write_cbz
from .checks import assert_no_orphan_media
from .test_cli import PROJECT_ROOT


@pytest.fixture
def site(clean_settings: Path, monkeypatch) -> Path:
    """A library with 作品 (chapters 1-3) and 別作品 (chapters 4-5), imported and published."""
    tmp_path = clean_settings
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("REFLEX_DB_URL", f"sqlite:///{tmp_path / 'site.db'}")
    seed = 0
    for series, numbers in (("作品", (1, 2, 3)), ("別作品", (4, 5))):
        for number in numbers:
            seed += 1
            pages = {f"{i + 1}.png": d for i, d in enumerate(distinct_pages(2, seed=seed))}
            write_cbz(tmp_path / "comics" / series / f"{series} 第{number}話.cbz", pages)
    assert main(["import", str(tmp_path / "comics")]) == 0
    return tmp_path


def _units(site: Path) -> dict[str, list[int]]:
    engine = make_engine(f"sqlite:///{site / 'site.db'}")
    with Session(engine) as session:
        rows = session.exec(select(Series.title, Chapter.number_hundredths).join(Chapter)).all()
    engine.dispose()
    found: dict[str, list[int]] = {}
    for title, key in sorted(rows):
        found.setdefault(title, []).append(key)
    return found


def _manifests(site: Path, slug: str) -> list[str]:
    return sorted(p.name for p in (site / "data" / "published" / "manifests" / slug).glob("*.json"))


def test_renumber_dry_run_says_what_would_change_and_changes_nothing(site: Path, capsys):
    capsys.readouterr()
    assert main(["renumber", "作品", "3", "第14話", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would renumber chapter 3 of '作品' as chapter 14" in out and "Dry run: nothing changed." in out
    assert _units(site)["作品"] == [100, 200, 300]


def test_renumber_moves_the_unit_and_publishes_once(site: Path, capsys):
    slug = "sakuhin"
    assert main(["renumber", slug, "3", "14"]) == 0
    assert _units(site)["作品"] == [100, 200, 1400]
    assert _manifests(site, slug) == ["1.json", "14.json", "2.json"]
    # and a chapter can become a volume, read at its own URL and key
    assert main(["renumber", slug, "14", "第3巻"]) == 0
    assert _manifests(site, slug) == ["1.json", "2.json", "3-vol.json"]


def test_renumber_onto_a_taken_number_is_refused_and_changes_nothing(site: Path, capsys):
    capsys.readouterr()
    assert main(["renumber", "作品", "1", "2"]) == 1
    err = capsys.readouterr().err
    assert "error: '作品' already has chapter 2" in err and "nothing changed" in err
    assert _units(site)["作品"] == [100, 200, 300]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["remove", "作品", "第9話"], "error: '作品' has no chapter 9"),
        (["remove", "無い作品"], "error: no series '無い作品': give its slug"),
        (["renumber", "作品", "1", "abc"], "error: not a chapter or volume number: 'abc'"),
        (["merge-series", "作品", "作品"], "error: '作品' cannot be merged into itself"),
    ],
)
def test_unknown_names_and_bad_numbers_are_refused_clearly(site: Path, capsys, argv, message):
    capsys.readouterr()
    assert main(argv) in (1, 2)
    assert message in capsys.readouterr().err
    assert _units(site) == {"作品": [100, 200, 300], "別作品": [400, 500]}


def test_remove_takes_the_units_their_media_and_their_manifests(site: Path, capsys):
    engine = make_engine(f"sqlite:///{site / 'site.db'}")
    with Session(engine) as session:
        keys = set(session.exec(select(Page.media_key).join(Chapter).where(Chapter.number_hundredths == 200)))
    capsys.readouterr()
    assert main(["remove", "作品", "2", "第3話"]) == 0
    out = capsys.readouterr().out
    assert "remove chapter 2 of '作品' (2 pages)" in out
    assert "still exists: the next import of its folder adds it again" in out
    assert _units(site)["作品"] == [100]
    assert _manifests(site, "sakuhin") == ["1.json"]
    media = site / "data" / "media"
    assert keys and all(not list(media.rglob(f"{key}*")) for key in keys)
    assert_no_orphan_media(engine, media)
    engine.dispose()


def test_merge_series_moves_every_unit_into_the_target(site: Path, capsys):
    capsys.readouterr()
    assert main(["merge-series", "別作品", "作品"]) == 0
    assert "merge '別作品' (2 units) into '作品'" in capsys.readouterr().out
    assert _units(site) == {"作品": [100, 200, 300, 400, 500]}
    engine = make_engine(f"sqlite:///{site / 'site.db'}")
    with Session(engine) as session:
        assert session.exec(select(Series.alt_titles)).one() == ["別作品"]
    engine.dispose()
    assert _manifests(site, "sakuhin") == ["1.json", "2.json", "3.json", "4.json", "5.json"]


def test_the_real_cli_in_a_subprocess(site: Path):
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "manga_app.catalogue", "remove", "別作品", "--dry-run"],
        capture_output=True, text=True, env=env, cwd=site, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "would remove chapter 4 of '別作品' (2 pages)",
        "would remove chapter 5 of '別作品' (2 pages)",
        f"NOTE    {site / 'comics' / '別作品' / '別作品 第4話.cbz'} still exists: the next import of its folder adds it again",
        f"NOTE    {site / 'comics' / '別作品' / '別作品 第5話.cbz'} still exists: the next import of its folder adds it again",
        "Dry run: nothing changed.",
    ]
    missing = subprocess.run(
        [sys.executable, "-m", "manga_app.catalogue", "remove", "別作品", "第9話"],
        capture_output=True, text=True, env=env, cwd=site, timeout=120,
    )
    assert (missing.returncode, missing.stderr.strip()) == (2, "error: '別作品' has no chapter 9")


def test_after_a_merge_new_files_of_the_merged_series_join_the_target(site: Path, capsys):
    assert main(["merge-series", "別作品", "作品"]) == 0
    pages = {"1.png": distinct_pages(1, seed=99)[0]}
    write_cbz(site / "comics" / "別作品" / "別作品 第6話.cbz", pages)
    assert main(["import", str(site / "comics")]) == 0
    assert _units(site) == {"作品": [100, 200, 300, 400, 500, 600]}
