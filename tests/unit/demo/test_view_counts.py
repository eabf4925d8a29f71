"""The demo step after the import: plausible, deterministic view counts from the plan,
set (never added) on what the importer brought in, then published."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlmodel import Session, select

from manga_app.catalogue import repository
from manga_app.core.db import make_engine, migrate
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.models import Chapter, Series
from manga_app.demo import generate_demo_library, plan_library
from manga_app.demo.catalogue_data import CATALOGUE
from manga_app.demo.view_counts import demo_views, main

NOW = datetime(2026, 3, 15, 12, 0, tzinfo=UTC)
SERIES = 3


def test_views_are_deterministic_varied_and_follow_the_plan():
    plans = plan_library(now=NOW)
    views = demo_views(plans)
    assert views == demo_views(plan_library(now=datetime(2024, 1, 1, tzinfo=UTC)))  # not tied to "now"
    assert views != demo_views(plans, seed=8)
    by_title = {v.title: v for v in views}
    assert set(by_title) == {s.title for s in CATALOGUE}
    totals = sorted(v.views for v in views)
    # A popular shelf worth showing: past a million at the top, hundreds or thousands at the bottom
    assert totals[-1] > 1_000_000 and totals[0] < 10_000 and len(set(totals)) == len(totals)
    for plan in plans:
        series = by_title[plan.series.title]
        assert len(series.chapters) == len(plan.chapters)
        assert series.views > sum(series.chapters.values())  # title pages are visited too
        assert all(views > 0 for views in series.chapters.values())


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[str, Path]:
    root = tmp_path_factory.mktemp("demo-views")
    generate_demo_library(root / "demo", series_count=SERIES, now=NOW, workers=1)
    url = f"sqlite:///{root / 'demo.db'}"
    migrate(url)
    engine = make_engine(url)
    report = import_source(root / "demo", engine=engine, media=MediaStore(root / "media"), workers=1)
    engine.dispose()
    assert report.ok, report.failed
    return url, root


def test_the_import_takes_no_views_and_the_demo_step_sets_them_then_publishes(
    imported, clean_settings, configure, capsys
):
    url, root = imported
    engine = make_engine(url)
    with Session(engine) as session:
        assert {s.views for s in session.exec(select(Series))} == {0}
    configure(DATA_DIR=root)
    assert main(["--db", url]) == 0
    assert f"demo views: set for {SERIES} series and" in capsys.readouterr().out
    expected = {v.title: v for v in demo_views(plan_library(now=NOW))}
    with Session(engine) as session:
        for series in session.exec(select(Series)):
            assert series.views == expected[series.title].views
            chapters = session.exec(select(Chapter).where(Chapter.series_id == series.id)).all()
            assert {c.number_hundredths: c.views for c in chapters} == expected[series.title].chapters
    # The published list shows them
    items = json.loads((root / "published" / "mangas_1.json").read_text())["list"]
    assert {i["title"]: i["views"] for i in items} == {
        title: v.views for title, v in expected.items() if title in {i["title"] for i in items}
    }
    assert len(items) == SERIES
    # Running the step again sets the same numbers (nothing is added)
    assert main(["--db", url, "--no-publish"]) == 0
    with Session(engine) as session:
        assert {s.title: s.views for s in session.exec(select(Series))} == {
            i["title"]: i["views"] for i in items
        }
    engine.dispose()


def test_the_demo_shows_its_genres_and_keeps_its_tags_apart(imported):
    url, _root = imported
    engine = make_engine(url)
    with Session(engine) as session:
        for series in session.exec(select(Series)):
            definition = next(s for s in CATALOGUE if s.title == series.title)
            assert series.tags == list(definition.tags)
        genres = {name for name, _ in repository.genre_totals(session=session)}
    engine.dispose()
    assert genres == {g for s in CATALOGUE[:SERIES] for g in s.genres}
