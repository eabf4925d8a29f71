"""The demo library's view history and publication times give every
ranking period, calendar day and card badge something real to show, on
whatever day the demo is made (checked on several days of the week)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from manga_app.core import discovery
from manga_app.demo.plan import plan_library
from manga_app.demo.view_counts import demo_views
from manga_app.demo.view_days import demo_days

MONDAY = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)


@pytest.mark.parametrize("now", [MONDAY + timedelta(days=n, hours=7 * n) for n in range(7)])
def test_every_period_weekday_and_badge_has_series(now):
    plans = plan_library(now=now)
    totals = {views.title: views.views for views in demo_views(plans)}
    today = discovery.tokyo_day(now)
    history = {}
    for plan in plans:
        times = [chapter.published_at for chapter in plan.chapters]
        history[plan.index] = demo_days(total=totals[plan.series.title], first=discovery.tokyo_day(times[0]),
                                        chapter_days=[discovery.tokyo_day(t) for t in times], now=now,
                                        key=plan.series.key)
    movements = set()
    for period in ("day", "week", "month"):
        windows = [discovery.window(period, today, back=back) for back in (0, 1)]
        current, previous = (
            {key: sum(v for day, v in days.items() if first <= day <= last) for key, days in history.items()}
            for first, last in windows
        )
        ranked = discovery.ranking(current, previous)
        assert len(ranked) >= 10, period
        movements |= {r.movement for r in ranked}
    assert {"up", "down", "new"} <= movements

    placed = {
        discovery.usual_weekday([c.published_at for c in plan.chapters], now=now) or "irregular"
        for plan in plans
        if plan.series.status == "ongoing"
    }
    assert placed == set(discovery.DAY_LABELS)

    badges = set()
    for plan in plans:
        badges |= set(discovery.badges(status=plan.series.status, created_at=plan.first_published,
                                       updated_at=plan.last_published, now=now))
    assert badges == {"completed", "new", "updated"}
