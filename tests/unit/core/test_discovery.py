"""The ranking, calendar and badge rules (core/discovery.py), as tables of cases."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from manga_app.core import discovery as d

# 2026-03-02 is a Monday.
MONDAY_NOON_JST = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)


def jst(day: int, hour: int = 12, minute: int = 0, month: int = 3) -> datetime:
    """A moment given in Japan's time, as UTC."""
    return datetime(2026, month, day, hour, minute, tzinfo=d.JST).astimezone(UTC)


@pytest.mark.parametrize(
    ("moment", "day"),
    [
        (datetime(2026, 3, 1, 14, 59, 59, tzinfo=UTC), date(2026, 3, 1)),  # 23:59:59 JST
        (datetime(2026, 3, 1, 15, 0, 0, tzinfo=UTC), date(2026, 3, 2)),  # midnight JST
        (datetime(2026, 3, 2, 14, 0, tzinfo=UTC), date(2026, 3, 2)),
        (datetime(2025, 12, 31, 15, 0, tzinfo=UTC), date(2026, 1, 1)),  # New Year in Japan first
    ],
)
def test_days_are_japanese_calendar_days(moment, day):
    assert d.tokyo_day(moment) == day


@pytest.mark.parametrize(
    ("period", "back", "expected"),
    [
        ("day", 0, (date(2026, 3, 2), date(2026, 3, 2))),
        ("day", 1, (date(2026, 3, 1), date(2026, 3, 1))),
        ("week", 0, (date(2026, 2, 24), date(2026, 3, 2))),
        ("week", 1, (date(2026, 2, 17), date(2026, 2, 23))),
        ("month", 0, (date(2026, 2, 1), date(2026, 3, 2))),  # 2026 is no leap year
        ("month", 1, (date(2026, 1, 2), date(2026, 1, 31))),
        ("all", 0, None),
    ],
)
def test_period_windows_end_today_and_the_previous_one_just_before(period, back, expected):
    assert d.window(period, date(2026, 3, 2), back=back) == expected


def test_the_oldest_day_kept_is_the_first_day_of_the_previous_month_window():
    first, _ = d.window("month", date(2026, 3, 2), back=1)
    assert date(2026, 3, 2) - first == timedelta(days=d.KEEP_VIEW_DAYS - 1)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("day", "day"), ("week", "week"), ("month", "month"), ("all", "all"), ("", "day"), (None, "day"),
     ("WEEK", "day"), ("year", "day"), ("week ", "day")],
)
def test_a_malformed_period_means_the_daily_ranking(value, expected):
    assert d.parse_period(value) == expected


@pytest.mark.parametrize(
    ("value", "now", "expected"),
    [
        ("fri", MONDAY_NOON_JST, "fri"),
        ("irregular", MONDAY_NOON_JST, "irregular"),
        ("", MONDAY_NOON_JST, "mon"),
        ("friday", MONDAY_NOON_JST, "mon"),
        (None, datetime(2026, 3, 1, 14, 59, tzinfo=UTC), "sun"),  # 23:59 on Sunday in Japan
        (None, datetime(2026, 3, 1, 15, 0, tzinfo=UTC), "mon"),  # already Monday in Japan
    ],
)
def test_a_malformed_day_means_today_in_japan(value, now, expected):
    assert d.parse_day(value, now=now) == expected


RANKING_CASES = [
    # (current, previous, keep, expected [(key, rank, movement)])
    ({1: 5, 2: 9, 3: 1}, {1: 5, 2: 9, 3: 1}, None, [(2, 1, "same"), (1, 2, "same"), (3, 3, "same")]),
    ({1: 9, 2: 5}, {1: 5, 2: 9}, None, [(1, 1, "up"), (2, 2, "down")]),
    ({1: 3, 2: 7, 3: 5}, {1: 3}, None, [(2, 1, "new"), (3, 2, "new"), (1, 3, "down")]),
    # Ties go to the tie key (the slug), then the id.
    ({1: 4, 2: 4, 3: 4}, {}, None, [(2, 1, "new"), (3, 2, "new"), (1, 3, "new")]),
    # No views in the period: not ranked; no views before: NEW.
    ({1: 0, 2: 2}, {1: 8, 2: 0}, None, [(2, 1, "new")]),
    # Within a genre the places are the genre's own, before and now.
    ({1: 9, 2: 8, 3: 7}, {1: 9, 2: 1, 3: 8}, {2, 3}, [(2, 1, "up"), (3, 2, "down")]),
    ({}, {1: 3}, None, []),
]


@pytest.mark.parametrize(("current", "previous", "keep", "expected"), RANKING_CASES)
def test_ranking_orders_by_views_and_moves_against_the_previous_period(current, previous, keep, expected):
    tie = {1: "c", 2: "a", 3: "b"}
    result = d.ranking(current, previous, keep=keep, tie=tie)
    assert [(r.key, r.rank, r.movement) for r in result] == expected
    assert [r.views for r in result] == [current[key] for key, _, _ in expected]


NOW = jst(2, 20)  # Monday 20:00 JST
WEEKDAY_CASES = [
    # (publication times, expected weekday)
    ([jst(2, 0, 5), jst(23, 18, month=2), jst(16, 9, month=2), jst(9, 23, 59, month=2)], "mon"),
    # 23:59 JST on Sunday is Sunday (though a minute later it is Monday).
    ([jst(1, 23, 59), jst(22, 23, 59, month=2), jst(15, 23, 59, month=2)], "sun"),
    # 00:30 JST on Monday is still Sunday in UTC; Japan's day counts.
    ([jst(2, 0, 30), jst(23, 0, 30, month=2), jst(16, 0, 30, month=2)], "mon"),
    # Two publication days are not a schedule.
    ([jst(2), jst(23, month=2)], None),
    # Several chapters on one day count once.
    ([jst(2, 10), jst(2, 11), jst(2, 12), jst(26, month=2)], None),
    # Two thirds on one weekday is enough (4 of 6) ...
    ([jst(2), jst(23, month=2), jst(16, month=2), jst(9, month=2), jst(25, month=2), jst(19, month=2)], "mon"),
    # ... half is not (3 of 6).
    ([jst(2), jst(23, month=2), jst(16, month=2), jst(25, month=2), jst(19, month=2), jst(12, month=2)], None),
    # Older than eight weeks is forgotten.
    ([jst(2), jst(5, month=1), jst(29, month=12) - timedelta(days=365)], None),
    # The future (a chapter scheduled ahead) is not yet a publication.
    ([jst(9), jst(16), jst(23)], None),
    ([], None),
]


@pytest.mark.parametrize(("published", "expected"), WEEKDAY_CASES)
def test_usual_weekday(published, expected):
    assert d.usual_weekday(published, now=NOW) == expected


@pytest.mark.parametrize(
    ("latest", "expected"),
    [(jst(2, 0, 0), True), (jst(1, 23, 59), False), (jst(2, 19, 59), True), (jst(2, 21), False)],
)
def test_updated_today_is_today_in_japan(latest, expected):
    assert d.updated_today(latest, now=NOW) is expected


@pytest.mark.parametrize(
    ("status", "created_days", "updated_hours", "expected"),
    [
        ("ongoing", 30, 48, []),
        ("completed", 30, 48, ["completed"]),
        ("ongoing", 7, 48, ["new"]),
        ("ongoing", 7.01, 48, []),
        ("ongoing", 30, 24, ["updated"]),
        ("ongoing", 30, 24.01, []),
        ("completed", 1, 1, ["completed", "new", "updated"]),
    ],
)
def test_badges(status, created_days, updated_hours, expected):
    got = d.badges(status=status, created_at=NOW - timedelta(days=created_days),
                   updated_at=NOW - timedelta(hours=updated_hours), now=NOW)
    assert got == expected
