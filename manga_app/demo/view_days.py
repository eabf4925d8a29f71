"""A view history for the demo library: daily counts of the last 60 days
(what the rankings read) and the day each series came to the site.

A real site's rankings move: series rise and fall, a new chapter brings a
spike of readers for a few days, a new series enters the ranking. Each
series gets a trend (rising or fading), a spike after every chapter and its
own daily noise, all from the seed, so the 日間, 週間, 月間 and 累計 rankings
differ from each other and show ↑, ↓ and NEW. Today's count is the share of
the day gone by in Japan. The counts are set, not added: running the step
again on the same day changes nothing.

A fresh import makes every series "new" (created now): the demo site is
taken to have carried each series since its first chapter, so only series
whose first chapter is less than a week old carry the NEW badge."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.models import Chapter, Series, SeriesViewDay
from manga_app.core.discovery import JST, KEEP_VIEW_DAYS, tokyo_day

__all__ = ["apply_view_days", "demo_days"]

_SHARE_PER_DAY = 1 / 400  # of the running total, on an ordinary day
_SPIKE = (2.5, 0.45)  # a chapter's day multiplies by 2.5, fading by 0.45 a day


def demo_days(*, total: int, first: date, chapter_days: Sequence[date], now: datetime, key: str,
              seed: int = 7) -> dict[date, int]:
    """Views per day of the last KEEP_VIEW_DAYS days, today's partial."""
    rng = random.Random(f"{seed}:{key}:days")
    today = tokyo_day(now)
    trend = rng.uniform(-0.05, 0.05)  # growth per day
    base = max(1.0, total * _SHARE_PER_DAY)
    local = now.astimezone(JST)
    elapsed = (local - local.replace(hour=0, minute=0, second=0, microsecond=0)).total_seconds() / 86400
    days = {}
    for back in range(KEEP_VIEW_DAYS):
        day = today - timedelta(days=back)
        if day < first:
            break
        since = [(day - out).days for out in chapter_days if 0 <= (day - out).days < 7]
        spike = 1 + sum(_SPIKE[0] * _SPIKE[1] ** gap for gap in since)
        count = base * math.exp(-trend * back) * spike * rng.uniform(0.5, 1.5)
        if back == 0:
            count *= max(elapsed, 0.05)
        days[day] = max(0, round(count))
    return days


def apply_view_days(*, session: Session, seed: int = 7, now: datetime | None = None) -> int:
    """Set every series' days (and its arrival, see the module doc); returns rows written."""
    now = now or datetime.now(UTC)
    published = sa.select(Chapter.series_id, Chapter.published_at)
    chapters: dict[int, list[datetime]] = {}
    for series_id, moment in session.execute(published):
        chapters.setdefault(series_id, []).append(moment)
    written = 0
    for series in session.exec(select(Series)).all():
        times = sorted(chapters.get(series.id, []))
        if not times:
            continue
        series.created_at = times[0]
        days = demo_days(total=series.views, first=tokyo_day(times[0]), chapter_days=[tokyo_day(t) for t in times],
                         now=now, key=series.slug, seed=seed)
        session.execute(sa.delete(SeriesViewDay).where(SeriesViewDay.series_id == series.id))
        rows = [{"day": day, "series_id": series.id, "views": views} for day, views in days.items() if views]
        if rows:
            session.execute(sa.insert(SeriesViewDay), rows)
        written += len(rows)
    session.commit()
    return written
