"""Table-driven tests for manga_app.core.display."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from manga_app.core.display import Throttle, format_count, relative_time_ja

UTC = timezone.utc
JST = timezone(timedelta(hours=9))

# Fixed reference point for most cases: 2026-03-15 12:00:00 UTC.
NOW = datetime(2026, 3, 15, 12, 0, 0, tzinfo=UTC)


def ago(**kwargs: float) -> datetime:
    return NOW - timedelta(**kwargs)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --------------------------------------------------------------------------
# relative_time_ja
# --------------------------------------------------------------------------

# (id, value, now, expected)
RELATIVE_CASES = [
    # invalid input
    ("none", None, NOW, "無効な日付"),
    ("empty-string", "", NOW, "無効な日付"),
    ("blank-string", "   ", NOW, "無効な日付"),
    ("garbage-string", "not a date", NOW, "無効な日付"),
    ("month-13", "2026-13-01T00:00:00Z", NOW, "無効な日付"),
    ("feb-30", "2026-02-30", NOW, "無効な日付"),
    ("int", 1_700_000_000, NOW, "無効な日付"),
    ("float", 1.5, NOW, "無効な日付"),
    ("bytes", b"2026-03-15T12:00:00Z", NOW, "無効な日付"),
    ("object", object(), NOW, "無効な日付"),
    ("list", ["2026-03-15"], NOW, "無効な日付"),
    # future
    ("future-1us", NOW + timedelta(microseconds=1), NOW, "未来の時間"),
    ("future-1s", NOW + timedelta(seconds=1), NOW, "未来の時間"),
    ("future-1y", NOW + timedelta(days=365), NOW, "未来の時間"),
    ("future-string-offset", "2026-03-15T21:00:01+09:00", NOW, "未来の時間"),
    # seconds
    ("0s", NOW, NOW, "たった今"),
    ("59s", ago(seconds=59), NOW, "たった今"),
    ("59.999s", ago(seconds=59, microseconds=999_999), NOW, "たった今"),
    # minutes
    ("60s", ago(seconds=60), NOW, "1分前"),
    ("119s", ago(seconds=119), NOW, "1分前"),
    ("120s", ago(seconds=120), NOW, "2分前"),
    ("59m59s", ago(minutes=59, seconds=59), NOW, "59分前"),
    # hours
    ("60m", ago(minutes=60), NOW, "1時間前"),
    ("23h59m59s", ago(hours=23, minutes=59, seconds=59), NOW, "23時間前"),
    # days
    ("24h", ago(hours=24), NOW, "1日前"),
    ("47h", ago(hours=47), NOW, "1日前"),
    ("48h", ago(hours=48), NOW, "2日前"),
    ("6d23h59m", ago(days=6, hours=23, minutes=59), NOW, "6日前"),
    # weeks
    ("7d", ago(days=7), NOW, "1週間前"),
    ("13d", ago(days=13), NOW, "1週間前"),
    ("14d", ago(days=14), NOW, "2週間前"),
    ("28d", ago(days=28), NOW, "4週間前"),
    ("34d23h", ago(days=34, hours=23), NOW, "4週間前"),
    # previous calendar month (only reachable from 35 days on)
    ("35d-prev-month", ago(days=35), NOW, "先月"),  # 2026-02-08
    ("first-of-prev-month", utc(2026, 2, 1), NOW, "先月"),
    # calendar months
    ("last-second-two-months-ago", utc(2026, 1, 31, 23, 59, 59), NOW, "2ヶ月前"),
    ("3-months", utc(2025, 12, 31), NOW, "3ヶ月前"),
    ("11-months", utc(2025, 4, 1), NOW, "11ヶ月前"),
    # previous calendar year (month difference >= 12)
    ("12-months-prev-year", utc(2025, 3, 31), NOW, "昨年"),
    ("start-of-prev-year", utc(2025, 1, 1), NOW, "昨年"),
    # one whole year elapsed, but two calendar years back
    ("end-of-2024", utc(2024, 12, 31, 23, 59, 59), NOW, "1年前"),
    ("1s-short-of-2y", utc(2024, 3, 15, 12, 0, 1), NOW, "1年前"),
    # two or more years
    ("exactly-2y", utc(2024, 3, 15, 12, 0, 0), NOW, "2年以上前"),
    ("long-ago", utc(2001, 1, 1), NOW, "2年以上前"),
    ("datetime-min", datetime.min, NOW, "2年以上前"),
    # day buckets win over calendar month: 2026-02-28 seen on 2026-03-01
    ("month-edge-1d", utc(2026, 2, 28), utc(2026, 3, 1), "1日前"),
    ("month-edge-29d-weeks", utc(2026, 1, 31), utc(2026, 3, 1), "4週間前"),
    # 35 days but two calendar months back: '先月' is skipped
    ("month-edge-35d-2-months", utc(2026, 1, 25), utc(2026, 3, 1), "2ヶ月前"),
    # year boundary
    ("new-year-1s", utc(2025, 12, 31, 23, 59, 59), utc(2026, 1, 1), "たった今"),
    ("new-year-prev-month", utc(2025, 12, 1), utc(2026, 1, 10), "先月"),
    ("new-year-2-months", utc(2025, 11, 20), utc(2026, 1, 10), "2ヶ月前"),
    ("new-year-11-months", utc(2025, 2, 5), utc(2026, 1, 10), "11ヶ月前"),
    ("new-year-12-months", utc(2025, 1, 9), utc(2026, 1, 10), "昨年"),
    ("new-year-1y-2-cal-years", utc(2024, 12, 31), utc(2026, 1, 1), "1年前"),
    # leap day anniversaries
    ("leap-day-before-2nd-anniv", utc(2024, 2, 29), utc(2026, 2, 28), "1年前"),
    ("leap-day-after-2nd-anniv", utc(2024, 2, 29), utc(2026, 3, 1), "2年以上前"),
    # string formats
    ("iso-z", "2026-03-15T11:59:00Z", NOW, "1分前"),
    ("iso-lower-z", "2026-03-15T11:59:00z", NOW, "1分前"),
    ("iso-z-fraction", "2026-03-15T11:00:00.123456Z", NOW, "59分前"),
    ("iso-offset-jst-equal", "2026-03-15T21:00:00+09:00", NOW, "たった今"),
    ("iso-offset-negative", "2026-03-15T04:00:00-05:00", NOW, "3時間前"),
    ("iso-naive-is-utc", "2026-03-15T10:00:00", NOW, "2時間前"),
    ("iso-space-separator", "2026-03-15 11:00:00", NOW, "1時間前"),
    ("iso-surrounding-space", "  2026-03-15T11:00:00Z  ", NOW, "1時間前"),
    ("iso-date-only", "2026-03-14", NOW, "1日前"),
    # datetime / date objects
    ("naive-datetime-is-utc", datetime(2026, 3, 15, 9, 0, 0), NOW, "3時間前"),
    ("aware-jst-datetime", datetime(2026, 3, 15, 20, 0, 0, tzinfo=JST), NOW, "1時間前"),
    ("date-object", date(2026, 3, 8), NOW, "1週間前"),
    # `now` handling: naive now is UTC, aware non-UTC now is converted
    ("naive-now", utc(2026, 3, 15, 11, 0), datetime(2026, 3, 15, 12, 0), "1時間前"),
    ("jst-now", utc(2026, 3, 15, 11, 0), datetime(2026, 3, 15, 21, 0, tzinfo=JST), "1時間前"),
    # calendar month is computed in UTC, not in the value's own offset:
    # 2026-02-01 08:00+09:00 is 2026-01-31 23:00 UTC -> two months back
    ("month-in-utc", "2026-02-01T08:00:00+09:00", NOW, "2ヶ月前"),
]


@pytest.mark.parametrize(
    ("value", "now", "expected"),
    [pytest.param(v, n, e, id=i) for i, v, n, e in RELATIVE_CASES],
)
def test_relative_time_ja(value: object, now: datetime, expected: str) -> None:
    assert relative_time_ja(value, now=now) == expected


def test_relative_time_ja_now_is_keyword_only() -> None:
    with pytest.raises(TypeError):
        relative_time_ja(NOW, NOW)  # type: ignore[misc]


# --------------------------------------------------------------------------
# format_count
# --------------------------------------------------------------------------

FORMAT_COUNT_CASES = [
    # empty / junk
    ("none", None, "0"),
    ("empty", "", "0"),
    ("blank", "   ", "0"),
    ("word", "abc", "0"),
    ("comma-separated", "1,234", "0"),
    ("nan-string", "NaN", "0"),
    ("inf-string", "inf", "0"),
    ("nan-float", float("nan"), "0"),
    ("inf-float", float("inf"), "0"),
    ("bool", True, "0"),
    ("list", [1], "0"),
    # below 1000: plain integers
    ("zero", 0, "0"),
    ("one", 1, "1"),
    ("999", 999, "999"),
    ("float-rounds-down", 12.4, "12"),
    ("float-half-up", 12.5, "13"),
    ("999.4", 999.4, "999"),
    ("999.5-promotes-to-K", 999.5, "1.0K"),
    ("negative-small-rounds-to-zero", -0.4, "0"),
    # thousands
    ("1000", 1000, "1.0K"),
    ("1049", 1049, "1.0K"),
    ("1050-half-up", 1050, "1.1K"),
    ("1500", 1500, "1.5K"),
    ("12345", 12_345, "12.3K"),
    ("999949", 999_949, "999.9K"),
    ("999950-promotes-to-M", 999_950, "1.0M"),
    # millions
    ("1e6", 1_000_000, "1.0M"),
    ("2.5M", 2_500_000, "2.5M"),
    ("999949999", 999_949_999, "999.9M"),
    ("999950000-promotes-to-B", 999_950_000, "1.0B"),
    # billions (largest unit, never promoted)
    ("1e9", 1_000_000_000, "1.0B"),
    ("3.1B", 3_140_000_000, "3.1B"),
    ("1e12", 10**12, "1000.0B"),
    ("huge-int", 10**40, "10000000000000000000000000000000.0B"),
    # negatives
    ("neg-5", -5, "-5"),
    ("neg-999", -999, "-999"),
    ("neg-1500", -1500, "-1.5K"),
    ("neg-999950", -999_950, "-1.0M"),
    ("neg-2B", -2_000_000_000, "-2.0B"),
    # other numeric types / strings
    ("float-1500.0", 1500.0, "1.5K"),
    ("decimal", Decimal("1234.5"), "1.2K"),
    ("str-int", "42", "42"),
    ("str-thousand", "1500", "1.5K"),
    ("str-float", "2.5e6", "2.5M"),
    ("str-negative", "-1500", "-1.5K"),
    ("str-whitespace", " 999 ", "999"),
    ("str-decimal-point", "12.5", "13"),
]


@pytest.mark.parametrize(
    ("value", "expected"),
    [pytest.param(v, e, id=i) for i, v, e in FORMAT_COUNT_CASES],
)
def test_format_count(value: object, expected: str) -> None:
    assert format_count(value) == expected


# --------------------------------------------------------------------------
# Throttle
# --------------------------------------------------------------------------


class FakeClock:
    """Deterministic clock: returns whatever `t` is set to."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


# (id, interval, call times, expected allow() results)
THROTTLE_CASES = [
    ("first-call-allowed", 1.0, [0.0], [True]),
    ("same-instant", 1.0, [0.0, 0.0], [True, False]),
    ("just-inside", 1.0, [0.0, 0.999], [True, False]),
    ("exact-interval-allowed", 1.0, [0.0, 1.0], [True, True]),
    ("after-interval", 1.0, [0.0, 5.0], [True, True]),
    # rejected calls do not extend the window (measured from last allowed)
    ("rejected-do-not-extend", 1.0, [0.0, 0.5, 0.9, 1.0, 1.5, 2.0], [True, False, False, True, False, True]),
    ("zero-interval", 0.0, [0.0, 0.0, 0.0], [True, True, True]),
    ("long-interval", 60.0, [0.0, 30.0, 59.9, 60.0], [True, False, False, True]),
]


@pytest.mark.parametrize(
    ("interval", "times", "expected"),
    [pytest.param(iv, t, e, id=i) for i, iv, t, e in THROTTLE_CASES],
)
def test_throttle_allow(interval: float, times: list[float], expected: list[bool]) -> None:
    clock = FakeClock()
    gate = Throttle(interval, clock=clock)
    results = []
    for t in times:
        clock.t = 100.0 + t
        results.append(gate.allow())
    assert results == expected


def test_throttle_reset() -> None:
    clock = FakeClock()
    gate = Throttle(10.0, clock=clock)
    assert gate.allow() is True
    assert gate.allow() is False
    gate.reset()
    assert gate.allow() is True


def test_throttle_rejects_negative_interval() -> None:
    with pytest.raises(ValueError):
        Throttle(-1.0)


def test_throttle_default_clock_is_monotonic() -> None:
    gate = Throttle(3600.0)
    assert gate.allow() is True
    assert gate.allow() is False
