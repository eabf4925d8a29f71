"""The demo catalogue and its plan, checked without rendering any image.

The date checks go through the site's own ``relative_time_ja`` so that "every
relative-time bucket shows up" means exactly what a visitor will see.
"""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from manga_app.demo.catalogue_data import BUCKETS, CATALOGUE, CHAPTER_TITLES, TAGS
from manga_app.demo.generator import safe_filename
from manga_app.demo.plan import (
    MAX_AGE,
    PAGE_SIZE,
    SPREAD_SIZE,
    STRIP_SIZE,
    anchor_for_bucket,
    plan_library,
)
from manga_app.core.display import relative_time_ja

UTC = timezone.utc
NOW = datetime(2026, 3, 15, 12, 0, 0, tzinfo=UTC)

GENRES = {
    "アクション", "恋愛", "ファンタジー", "コメディ", "ホラー", "スポーツ",
    "日常", "SF", "ミステリー", "歴史", "グルメ", "学園",
}

_LABEL_TO_BUCKET = (
    (r"^たった今$", "just_now"),
    (r"^\d+分前$", "minutes"),
    (r"^\d+時間前$", "hours"),
    (r"^\d+日前$", "days"),
    (r"^\d+週間前$", "weeks"),
    (r"^先月$", "last_month"),
    (r"^\d+ヶ月前$", "months"),
    (r"^昨年$", "last_year"),
    (r"^1年前$", "one_year"),
    (r"^2年以上前$", "two_plus"),
)


def bucket_of(value: datetime, now: datetime) -> str:
    label = relative_time_ja(value, now=now)
    for pattern, bucket in _LABEL_TO_BUCKET:
        if re.match(pattern, label):
            return bucket
    raise AssertionError(f"unexpected label {label!r}")


@pytest.fixture(scope="module")
def full_plan():
    return plan_library(now=NOW, seed=7)


# --------------------------------------------------------------------------
# Catalogue
# --------------------------------------------------------------------------


def test_catalogue_has_about_forty_unique_series():
    assert 38 <= len(CATALOGUE) <= 42
    titles = [s.title for s in CATALOGUE]
    assert len(set(titles)) == len(titles)
    assert len({safe_filename(t) for t in titles}) == len(titles)
    assert len({s.key for s in CATALOGUE}) == len(CATALOGUE)
    assert len({s.romaji for s in CATALOGUE}) == len(CATALOGUE)


def test_catalogue_metadata_shape():
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    for series in CATALOGUE:
        assert japanese.search(series.title), series.title
        assert series.romaji.isascii() and series.romaji
        assert series.nickname is None or japanese.search(series.nickname)
        assert 1 <= len(series.genres) <= 4 and set(series.genres) <= GENRES, series.genres
        assert 1 <= series.chapter_total <= 30
        assert series.tags and set(series.tags) <= set(TAGS) and len(set(series.tags)) == len(series.tags)
        assert ("縦読み" in series.tags) == (series.style == "webtoon")
        assert series.latest in BUCKETS
        assert japanese.search(series.summary) and series.summary.count("。") <= 3
    assert len(set(CHAPTER_TITLES)) == len(CHAPTER_TITLES)
    assert max(s.chapters for s in CATALOGUE) <= len(CHAPTER_TITLES)


def test_catalogue_variety():
    assert {s.status for s in CATALOGUE} == {"ongoing", "completed"}
    assert 3 <= sum(s.style == "webtoon" for s in CATALOGUE) <= 4
    assert sum(s.nickname is not None for s in CATALOGUE) >= 5
    assert any(s.extras for s in CATALOGUE)
    assert {g for s in CATALOGUE for g in s.genres} == GENRES
    assert {t for s in CATALOGUE for t in s.tags} == set(TAGS)  # every tag is used...
    assert all(sum(t in s.tags for s in CATALOGUE) >= 2 for t in TAGS)  # ...by several series
    # Skewed small: most series are short, a few are long.
    counts = sorted(s.chapter_total for s in CATALOGUE)
    assert counts[len(counts) // 2] <= 6 and counts[-1] >= 20


# --------------------------------------------------------------------------
# Plan
# --------------------------------------------------------------------------


def test_full_plan_size_stays_small(full_plan):
    chapters = [c for sp in full_plan for c in sp.chapters]
    assert len(full_plan) == len(CATALOGUE)
    assert 200 <= len(chapters) <= 250
    assert all(4 <= len(c.pages) <= 10 for c in chapters if c.series.style == "manga")
    assert sum(len(c.pages) for c in chapters) < 2000


def test_every_relative_time_bucket_is_covered(full_plan):
    seen = {bucket_of(c.published_at, NOW) for sp in full_plan for c in sp.chapters}
    assert seen == set(BUCKETS)


@pytest.mark.parametrize(
    "now",
    [
        NOW,
        datetime(2025, 1, 20, 0, 0, 1, tzinfo=UTC),
        datetime(2024, 2, 29, 23, 59, 59, tzinfo=UTC),  # leap day
        datetime(2027, 12, 15, 6, 30, tzinfo=UTC),
        datetime(2026, 7, 31, 18, 0, tzinfo=UTC),
    ],
)
@pytest.mark.parametrize("seed", [7, 1234])
def test_latest_chapter_lands_in_its_declared_bucket(now, seed):
    for sp in plan_library(now=now, seed=seed):
        assert bucket_of(sp.last_published, now) == sp.series.latest, sp.series.key


def test_dates_increase_and_span_at_most_three_years(full_plan):
    oldest = NOW
    for sp in full_plan:
        dates = [c.published_at for c in sp.chapters]
        assert dates == sorted(dates) and len(set(dates)) == len(dates), sp.series.key
        assert dates[0] >= NOW - MAX_AGE
        assert dates[-1] <= NOW
        assert all(d.tzinfo is not None and d.microsecond == 0 for d in dates)
        oldest = min(oldest, dates[0])
    assert NOW - oldest > timedelta(days=2 * 365)  # really spread over ~three years


def test_chapter_numbers_titles_and_file_names(full_plan):
    for sp in full_plan:
        numbers = [c.number for c in sp.chapters]
        assert numbers == sorted(numbers, key=Decimal)
        assert len(numbers) == sp.series.chapter_total
        titles = [c.title for c in sp.chapters]
        assert len(set(titles)) == len(titles)
        stems = [c.file_stem for c in sp.chapters]
        assert all(re.fullmatch(r"第\d{3}(\.\d+)?話", stem) for stem in stems)
    decimals = [c for sp in full_plan for c in sp.chapters if "." in c.number]
    assert decimals and all(c.title.startswith("番外編") for c in decimals)
    assert next(c for sp in full_plan for c in sp.chapters if c.number == "10.5").file_stem == "第010.5話"


def test_spreads_and_webtoon_strips(full_plan):
    spreads = [p for sp in full_plan for c in sp.chapters for p in c.pages if p.is_spread]
    assert spreads
    assert all((p.width, p.height) == SPREAD_SIZE and p.index not in (0,) for p in spreads)
    for sp in full_plan:
        for chapter in sp.chapters:
            sizes = {(p.width, p.height) for p in chapter.pages}
            if sp.series.style == "webtoon":
                assert sizes == {STRIP_SIZE}
                assert all(p.height >= 3 * p.width for p in chapter.pages)
            else:
                assert (chapter.pages[0].width, chapter.pages[0].height) == PAGE_SIZE
                assert chapter.pages[0].kind == "cover"
                assert not any(p.is_spread for p in chapter.pages[-1:])
        if sp.series.spreads:
            assert any(p.is_spread for p in sp.chapters[0].pages), sp.series.key


def test_plan_is_deterministic_and_prefix_stable():
    assert plan_library(now=NOW, seed=7) == plan_library(now=NOW, seed=7)
    assert plan_library(now=NOW, seed=7, series_count=6) == plan_library(now=NOW, seed=7)[:6]
    assert plan_library(now=NOW, seed=7) != plan_library(now=NOW, seed=8)


def test_naive_now_means_utc():
    naive = NOW.replace(tzinfo=None)
    assert plan_library(now=naive, series_count=3) == plan_library(now=NOW, series_count=3)


@pytest.mark.parametrize("count", [0, len(CATALOGUE) + 1])
def test_series_count_is_validated(count):
    with pytest.raises(ValueError):
        plan_library(now=NOW, series_count=count)


def test_first_six_series_make_a_varied_test_library():
    first = CATALOGUE[:6]
    assert any(s.style == "webtoon" for s in first)
    assert any(s.spreads for s in first)
    assert any(s.extras for s in first)
    assert {s.status for s in first} == {"ongoing", "completed"}
    assert sum(s.chapter_total for s in first) <= 25


# --------------------------------------------------------------------------
# Bucket anchors at calendar edges
# --------------------------------------------------------------------------


@pytest.mark.parametrize("bucket", BUCKETS)
def test_anchor_lands_in_bucket_on_many_days(bucket):
    rng = random.Random(0)
    start = datetime(2025, 1, 1, 7, 0, tzinfo=UTC)
    for step in range(0, 800):
        now = start + timedelta(hours=step * 23, minutes=step * 11)
        anchor = anchor_for_bucket(bucket, now, rng)
        if anchor is None:
            assert bucket in ("last_month", "one_year")
            continue
        assert bucket_of(anchor, now) == bucket, (bucket, now, anchor)


def test_impossible_anchors_are_reported_and_fall_back():
    rng = random.Random(0)
    early_march = datetime(2026, 3, 2, 12, tzinfo=UTC)  # Feb 1 is only 29 days ago
    assert anchor_for_bucket("last_month", early_march, rng) is None
    new_years_eve = datetime(2026, 12, 31, 23, 59, 30, tzinfo=UTC)
    assert anchor_for_bucket("one_year", new_years_eve, rng) is None
    for now in (early_march, new_years_eve):
        for sp in plan_library(now=now):
            assert sp.last_published <= now  # fallbacks still give a valid, older date
    with pytest.raises(ValueError):
        anchor_for_bucket("fortnight", NOW, rng)
