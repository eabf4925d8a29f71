"""Plausible view counts for the imported demo library: ``python -m manga_app.demo.view_counts``.

A fresh import has no readers, so every series would show 閲覧 0 and the home
page's 人気 shelf would be in no particular order. This step gives the demo
series and chapters counts a real site could have (a few hits past a
million, a long tail of hundreds) and a view history of the last days for
the rankings (view_days.py), then publishes so the lists show them.

The counts come from the demo plan alone (series key, chapter numbers,
seed), never from the archives: the importer must not take views from
files. They are set, not added, so running the step again changes nothing.
Series not in the plan, or not imported, are left alone.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import cli as catalogue_cli
from manga_app.core.db import default_db_url, make_engine, migrate, normalise_url
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import title_key, to_hundredths
from manga_app.demo.plan import SeriesPlan, plan_library
from manga_app.demo.view_days import apply_view_days

__all__ = ["SeriesViews", "apply_demo_views", "demo_views", "main"]

# Chapter numbers and titles do not depend on the moment the plan is made for.
_PLAN_TIME = datetime(2025, 1, 1, tzinfo=UTC)
_FIRST_CHAPTER_READERS = (400, 1_500_000)  # the least and the most popular series
_DROP_PER_CHAPTER = 0.92  # readers lost from one chapter to the next
_SIDE_STORY_SHARE = 0.55  # x.5 chapters are read by fewer people


@dataclass(frozen=True)
class SeriesViews:
    title: str
    views: int
    chapters: dict[int, int]  # chapter number in hundredths -> views


def demo_views(plans: list[SeriesPlan], *, seed: int = 7) -> list[SeriesViews]:
    """Views for every planned series and chapter; a pure function of the plan and seed.

    Popularity is log-uniform between the two ends of _FIRST_CHAPTER_READERS;
    each chapter keeps most readers of the one before (long series lose
    more overall); the series count adds title-page visits to its chapters'.
    """
    low, high = (math.log(n) for n in _FIRST_CHAPTER_READERS)
    result = []
    for plan in plans:
        rng = random.Random(f"{seed}:{plan.series.key}:views")
        readers = math.exp(rng.uniform(low, high))
        chapters: dict[int, int] = {}
        for position, chapter in enumerate(plan.chapters):
            share = _DROP_PER_CHAPTER**position * rng.uniform(0.9, 1.1)
            if "." in chapter.number:
                share *= _SIDE_STORY_SHARE
            chapters[to_hundredths(chapter.number)] = max(1, round(readers * share))
        visits = rng.uniform(1.1, 1.4)
        result.append(SeriesViews(plan.series.title, round(sum(chapters.values()) * visits), chapters))
    return result


def apply_demo_views(*, session: Session, seed: int = 7) -> tuple[int, int]:
    """Set the views of the imported demo series and chapters; returns (series, chapters) set."""
    wanted = {title_key(v.title): v for v in demo_views(plan_library(now=_PLAN_TIME, seed=seed), seed=seed)}
    series_set = chapters_set = 0
    for series in session.exec(select(Series)).all():
        views = wanted.get(series.title_key)
        if views is None:
            continue
        series.views = views.views
        series_set += 1
        for chapter in session.exec(select(Chapter).where(Chapter.series_id == series.id)).all():
            if chapter.number_hundredths in views.chapters:
                chapter.views = views.chapters[chapter.number_hundredths]
                chapters_set += 1
    session.commit()
    return series_set, chapters_set


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m manga_app.demo.view_counts",
        description="Give the imported demo library plausible view counts, then publish.",
    )
    parser.add_argument("--seed", type=int, default=7, help="the demo's seed (default: 7)")
    parser.add_argument("--db", help="database URL (default: REFLEX_DB_URL, else data/manga.db)")
    parser.add_argument("--no-publish", action="store_true", help="do not publish afterwards")
    args = parser.parse_args(argv)
    url = normalise_url(args.db) if args.db else default_db_url()
    try:
        migrate(url)
        engine = make_engine(url)
        try:
            with Session(engine) as session:
                series, chapters = apply_demo_views(session=session, seed=args.seed)
                days = apply_view_days(session=session, seed=args.seed)
        finally:
            engine.dispose()
    except sa.exc.SQLAlchemyError as exc:
        print(f"error: cannot set the demo views: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
    print(f"demo views: set for {series} series and {chapters} chapters, {days} series-days")
    if args.no_publish:
        return 0
    return catalogue_cli.main(["publish", *(["--db", args.db] if args.db else [])])


if __name__ == "__main__":
    sys.exit(main())
