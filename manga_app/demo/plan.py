"""The library plan: every decision that is not a pixel.

Planning (chapter numbers, titles, publication dates, page sizes, where the
double-page spreads go) is separated from drawing so that tests can check
the whole 40-series library in milliseconds, and so the generator can hand
self-contained chapter jobs to worker processes.

Dates are computed relative to ``now`` so that, whenever the demo is
generated, the site shows every relative-time bucket of
``manga_app.core.display.relative_time_ja``: each series names the bucket of its
latest chapter, and earlier chapters step back by the series' cadence, never
further than three years before ``now``.
"""

from __future__ import annotations

import calendar
import random
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Literal

from manga_app.demo.catalogue_data import CATALOGUE, CHAPTER_TITLES, SeriesDef

__all__ = [
    "PAGE_SIZE",
    "SPREAD_SIZE",
    "STRIP_SIZE",
    "ChapterPlan",
    "PagePlan",
    "SeriesPlan",
    "anchor_for_bucket",
    "plan_library",
]

PageKind = Literal["cover", "page", "spread", "strip"]

PAGE_SIZE = (720, 1024)
SPREAD_SIZE = (1440, 1024)
STRIP_SIZE = (720, 2400)

# Oldest allowed publication date, relative to now ("spread over three years").
MAX_AGE = timedelta(days=3 * 365)


@dataclass(frozen=True)
class PagePlan:
    """One image of a chapter: its 0-based index, kind and pixel size."""

    index: int
    kind: PageKind
    width: int
    height: int

    @property
    def is_spread(self) -> bool:
        return self.kind == "spread"


@dataclass(frozen=True)
class ChapterPlan:
    """One chapter (one CBZ): number as written in ComicInfo, title, date, pages."""

    series: SeriesDef
    series_index: int
    hue: float
    number: str
    title: str
    published_at: datetime
    pages: tuple[PagePlan, ...]

    @property
    def file_stem(self) -> str:
        """``第007話`` / ``第010.5話``: zero-padded so names sort naturally."""
        whole, _, fraction = self.number.partition(".")
        padded = f"{int(whole):03d}" + (f".{fraction}" if fraction else "")
        return f"第{padded}話"


@dataclass(frozen=True)
class SeriesPlan:
    """A series with its planned chapters, oldest first."""

    series: SeriesDef
    index: int
    hue: float
    comicid: int
    chapters: tuple[ChapterPlan, ...]

    @property
    def first_published(self) -> datetime:
        return self.chapters[0].published_at

    @property
    def last_published(self) -> datetime:
        return self.chapters[-1].published_at


# --------------------------------------------------------------------------
# Dates
# --------------------------------------------------------------------------


def _to_utc(value: datetime) -> datetime:
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _uniform(rng: random.Random, lo: datetime, hi: datetime) -> datetime:
    """A whole-second instant in [lo, hi] (lo <= hi)."""
    span = int((hi - lo).total_seconds())
    return lo + timedelta(seconds=rng.randint(0, max(span, 0)))


def _month_start(year: int, month: int) -> datetime:
    """First instant of ``year``/``month``, months may under- or overflow."""
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=timezone.utc)


def _two_years_before(now: datetime) -> datetime:
    """Same moment two calendar years earlier (Feb 29 maps to Feb 28)."""
    day = min(now.day, calendar.monthrange(now.year - 2, now.month)[1])
    return now.replace(year=now.year - 2, day=day)


def anchor_for_bucket(bucket: str, now: datetime, rng: random.Random) -> datetime | None:
    """Pick an instant that ``relative_time_ja(…, now=now)`` puts in ``bucket``.

    Returns ``None`` when the calendar makes the bucket impossible at this
    ``now``: ``last_month`` needs an instant in the previous calendar month
    at least 35 days ago (impossible in the first 4 to 7 days of a month,
    depending on the previous month's length), and ``one_year`` needs an
    instant two calendar years back but less than two full years ago
    (impossible in the last minute of 31 December).
    """
    now = _to_utc(now).replace(microsecond=0)
    if bucket == "just_now":
        return now - timedelta(seconds=rng.randint(5, 50))
    if bucket == "minutes":
        return now - timedelta(minutes=rng.randint(2, 55), seconds=rng.randint(0, 59))
    if bucket == "hours":
        return now - timedelta(hours=rng.randint(1, 22), minutes=rng.randint(5, 55))
    if bucket == "days":
        return now - timedelta(days=rng.randint(1, 5), hours=rng.randint(1, 20))
    if bucket == "weeks":
        return now - timedelta(days=rng.randint(7, 33), hours=rng.randint(0, 20))
    if bucket == "last_month":
        lo = _month_start(now.year, now.month - 1)
        hi = now - timedelta(days=35, hours=1)
        return _uniform(rng, lo, hi) if lo <= hi else None
    if bucket == "months":
        months_back = rng.randint(2, 11)
        start = _month_start(now.year, now.month - months_back)
        candidate = start + timedelta(days=rng.randint(0, 27), hours=rng.randint(0, 23))
        # Early in the current month, late days of two months ago can be < 35
        # days old (that would read 週間前); the month start never is.
        return candidate if now - candidate >= timedelta(days=35) else start
    if bucket == "last_year":
        # Same year-1, in a month no later than now's: month difference >= 12.
        start = _month_start(now.year - 1, rng.randint(1, now.month))
        return start + timedelta(days=rng.randint(0, 27), hours=rng.randint(0, 23))
    if bucket == "one_year":
        lo = _two_years_before(now) + timedelta(minutes=1)
        hi = datetime(now.year - 2, 12, 31, 23, 59, 59, tzinfo=timezone.utc)
        return _uniform(rng, lo, hi) if lo <= hi else None
    if bucket == "two_plus":
        return now - timedelta(days=rng.randint(745, 1000), hours=rng.randint(0, 23))
    raise ValueError(f"unknown relative-time bucket: {bucket!r}")


# Where to go when a bucket is impossible today (see anchor_for_bucket).
_FALLBACK = {"last_month": "months", "one_year": "two_plus"}


def _latest_date(series: SeriesDef, now: datetime, rng: random.Random) -> datetime:
    bucket = series.latest
    while True:
        anchor = anchor_for_bucket(bucket, now, rng)
        if anchor is not None:
            return anchor
        bucket = _FALLBACK[bucket]


def _chapter_dates(series: SeriesDef, count: int, now: datetime, rng: random.Random) -> list[datetime]:
    """Dates for ``count`` chapters, oldest first, ending at the series' bucket."""
    if series.key in _REGULAR_DAYS_BACK:
        return _regular_dates(series, count, now, rng, _REGULAR_DAYS_BACK[series.key])
    latest = _latest_date(series, now, rng)
    gaps = [
        timedelta(days=series.cadence_days * rng.uniform(0.85, 1.15), hours=rng.randint(-6, 6))
        for _ in range(count - 1)
    ]
    oldest_allowed = _to_utc(now) - MAX_AGE
    total = sum(gaps, timedelta())
    room = latest - oldest_allowed
    if total > room:  # compress the cadence rather than exceed three years
        gaps = [gap * (0.98 * room / total) for gap in gaps]
    dates = [latest]
    for gap in reversed(gaps):
        dates.append(dates[-1] - gap)
    return [d.replace(microsecond=0) for d in reversed(dates)]


# Ongoing weekly and fortnightly series come out on one weekday in Japan, as
# magazines do, so the weekday calendar has a series under every day: those
# whose latest chapter is from today stay on today's weekday; the others
# (buckets "days" and "weeks") are given, in catalogue order, how many days
# before today their latest chapter came out, cycling through the six other
# weekdays ("days" reaches back 1-6 days, "weeks" 7-13).
JST = timezone(timedelta(hours=9))
_RECENT_BUCKETS = ("just_now", "minutes", "hours")


def _regular_days_back() -> dict[str, int | None]:
    found: dict[str, int | None] = {}
    others = 0
    for series in CATALOGUE:
        if series.status != "ongoing" or series.cadence_days > 14:
            continue
        if series.latest in _RECENT_BUCKETS:
            found[series.key] = None
        elif series.latest in ("days", "weeks"):
            found[series.key] = 1 + others % 6 + (7 if series.latest == "weeks" else 0)
            # Fewer than three chapters make no schedule (core.discovery.usual_weekday).
            others += series.chapter_total >= 3
    return found


_REGULAR_DAYS_BACK = _regular_days_back()


def _regular_dates(series: SeriesDef, count: int, now: datetime, rng: random.Random, days_back: int | None) -> list[datetime]:
    """Every cadence_days exactly, at one time of day: one weekday in Japan."""
    if days_back is None:
        latest = _latest_date(series, now, rng)
    else:
        # A moment on that Japanese day no later in the day than now, so it
        # is at least `days_back` whole days old (its relative-time bucket).
        local_now = _to_utc(now).astimezone(JST)
        midnight = (local_now - timedelta(days=days_back)).replace(hour=0, minute=0, second=0, microsecond=0)
        elapsed = int((local_now - local_now.replace(hour=0, minute=0, second=0, microsecond=0)).total_seconds())
        latest = (midnight + timedelta(seconds=rng.randint(0, elapsed))).astimezone(timezone.utc)
    step = timedelta(days=series.cadence_days)
    return [(latest - step * back).replace(microsecond=0) for back in reversed(range(count))]


# --------------------------------------------------------------------------
# Chapters and pages
# --------------------------------------------------------------------------


def _chapter_numbers(series: SeriesDef) -> list[str]:
    numbers = [str(n) for n in range(1, series.chapters + 1)] + list(series.extras)
    return sorted(numbers, key=Decimal)


def _chapter_title(series: SeriesDef, number: str, position: int, total: int, pool: list[str]) -> str:
    subtitle = pool[position % len(pool)]
    if "." in number:
        return f"番外編 {subtitle}"
    if series.status == "completed" and position == total - 1 and total > 1:
        return f"最終話 {subtitle}"
    return subtitle


def _page_plans(series: SeriesDef, rng: random.Random, force_spread: bool) -> tuple[PagePlan, ...]:
    if series.style == "webtoon":
        count = rng.randint(3, 5)
        return tuple(PagePlan(i, "cover" if i == 0 else "strip", *STRIP_SIZE) for i in range(count))

    count = rng.choice((4, 5, 6, 6, 7, 7, 8, 8, 9, 10))
    spread_at = None
    if series.spreads and (force_spread or rng.random() < 0.35):
        spread_at = rng.randint(2, count - 2)  # never the cover, never the last page
    pages = []
    for i in range(count):
        if i == 0:
            pages.append(PagePlan(i, "cover", *PAGE_SIZE))
        elif i == spread_at:
            pages.append(PagePlan(i, "spread", *SPREAD_SIZE))
        else:
            pages.append(PagePlan(i, "page", *PAGE_SIZE))
    return tuple(pages)


def series_hue(index: int) -> float:
    """Golden-angle hues: neighbours in the catalogue never look alike."""
    return (index * 137.508 + 12.0) % 360.0


def _plan_series(series: SeriesDef, index: int, seed: int, now: datetime) -> SeriesPlan:
    rng = random.Random(f"{seed}:{series.key}:plan")
    numbers = _chapter_numbers(series)
    dates = _chapter_dates(series, len(numbers), now, rng)
    titles = list(CHAPTER_TITLES)
    rng.shuffle(titles)
    hue = series_hue(index)
    chapters = tuple(
        ChapterPlan(
            series=series,
            series_index=index,
            hue=hue,
            number=number,
            title=_chapter_title(series, number, position, len(numbers), titles),
            published_at=published_at,
            pages=_page_plans(series, rng, force_spread=position == 0),
        )
        for position, (number, published_at) in enumerate(zip(numbers, dates, strict=True))
    )
    return SeriesPlan(series=series, index=index, hue=hue, comicid=880100 + index, chapters=chapters)


def plan_library(*, now: datetime, seed: int = 7, series_count: int | None = None) -> list[SeriesPlan]:
    """Plan the first ``series_count`` catalogue series (all by default).

    Pure and cheap: no files, no images. The plan of series *i* does not
    depend on ``series_count``, so a small test library is an exact prefix
    of the full one.
    """
    total = len(CATALOGUE)
    count = total if series_count is None else series_count
    if not 1 <= count <= total:
        raise ValueError(f"series_count must be between 1 and {total}, got {count}")
    now = _to_utc(now).replace(microsecond=0)
    return [_plan_series(series, i, seed, now) for i, series in enumerate(CATALOGUE[:count])]
