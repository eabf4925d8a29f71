"""Framework-free display helpers: relative dates and compact counters
(docs/spec.md sections 5 and 9), series status labels, a throttle gate.

These helpers are deliberately pure (standard library only) so they can be
unit-tested without starting the web framework and reused from any layer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import date, datetime, timezone
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation, localcontext

__all__ = ["STATUS_LABELS", "relative_time_ja", "format_count", "Throttle"]

# A series' status as visitors read it (pages, heads, OPDS).
STATUS_LABELS = {"ongoing": "連載中", "completed": "完結"}

INVALID_DATE = "無効な日付"
FUTURE_TIME = "未来の時間"

_MINUTE = 60
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR


# --------------------------------------------------------------------------
# Relative time
# --------------------------------------------------------------------------


def _to_utc(value: datetime) -> datetime:
    """Return an aware UTC datetime; naive values are interpreted as UTC."""
    if value.tzinfo is None or value.utcoffset() is None:
        return value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc)


def _parse_datetime(value: object) -> datetime | None:
    """Coerce ``value`` to an aware UTC datetime, or ``None`` if impossible.

    Accepts ``datetime`` objects, plain ``date`` objects (midnight UTC) and
    ISO 8601 strings. A trailing ``Z``/``z`` is rewritten to ``+00:00`` so
    the parser behaves the same on every supported Python version.
    """
    try:
        if isinstance(value, datetime):
            return _to_utc(value)
        if isinstance(value, date):
            return datetime(value.year, value.month, value.day, tzinfo=timezone.utc)
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None
            if text[-1] in "Zz":
                text = text[:-1] + "+00:00"
            return _to_utc(datetime.fromisoformat(text))
    except (ValueError, TypeError, OverflowError):
        return None
    return None


def _whole_years_between(earlier: datetime, later: datetime) -> int:
    """Number of full anniversaries of ``earlier`` that have passed at ``later``.

    Compared field by field (no date construction) so Feb 29 needs no
    special casing: 2024-02-29 reaches its first anniversary on 2025-03-01.
    """
    years = later.year - earlier.year

    def key(d: datetime) -> tuple[int, ...]:
        return (d.month, d.day, d.hour, d.minute, d.second, d.microsecond)

    if key(later) < key(earlier):
        years -= 1
    return years


def relative_time_ja(value: object, *, now: datetime) -> str:
    """Describe ``value`` relative to ``now`` in Japanese (e.g. ``'3分前'``).

    ``value`` may be a ``datetime`` (naive means UTC), an ISO 8601 string
    (``Z``, an offset, or naive meaning UTC) or anything else, in which case
    ``'無効な日付'`` is returned. ``now`` is required so results are
    deterministic; a naive ``now`` is also treated as UTC. All calendar
    comparisons are done in UTC.

    Buckets are checked in this exact order; the first match wins:

    1. unparseable / ``None``                 -> ``'無効な日付'``
    2. ``value`` later than ``now``           -> ``'未来の時間'``
    3. elapsed < 60 s                         -> ``'たった今'``
    4. elapsed < 60 min                       -> ``'{m}分前'``   (1..59)
    5. elapsed < 24 h                         -> ``'{h}時間前'`` (1..23)
    6. elapsed < 7 days                       -> ``'{d}日前'``   (1..6)
    7. elapsed < 35 days                      -> ``'{w}週間前'`` (w = days // 7, 1..4)
    8. calendar month difference == 1         -> ``'先月'``
    9. calendar month difference <= 11        -> ``'{n}ヶ月前'`` (2..11)
    10. ``value.year == now.year - 1``         -> ``'昨年'``
    11. exactly 1 whole elapsed year           -> ``'1年前'``
    12. otherwise                              -> ``'2年以上前'``

    The calendar month difference is ``(now.year*12 + now.month) -
    (value.year*12 + value.month)``. Elapsed-time buckets (3-7) take priority
    over calendar buckets, so ``2026-02-28`` seen on ``2026-03-01`` is
    ``'1日前'``, not ``'先月'``; ``'先月'`` therefore only covers 35-61 days.
    Bucket 11 is reached when the value is two or more calendar years back
    but less than two full years have elapsed (e.g. ``2024-12-31`` seen on
    ``2026-01-01``).
    """
    then = _parse_datetime(value)
    if then is None:
        return INVALID_DATE
    current = _to_utc(now)

    if then > current:
        return FUTURE_TIME

    elapsed = current - then
    seconds = elapsed.days * _DAY + elapsed.seconds  # microseconds ignored
    if seconds < _MINUTE:
        return "たった今"
    if seconds < _HOUR:
        return f"{seconds // _MINUTE}分前"
    if seconds < _DAY:
        return f"{seconds // _HOUR}時間前"

    days = elapsed.days
    if days < 7:
        return f"{days}日前"
    if days < 35:
        return f"{days // 7}週間前"

    month_diff = (current.year * 12 + current.month) - (then.year * 12 + then.month)
    if month_diff == 1:
        return "先月"
    if month_diff <= 11:
        return f"{month_diff}ヶ月前"
    if then.year == current.year - 1:
        return "昨年"
    if _whole_years_between(then, current) == 1:
        return "1年前"
    return "2年以上前"


# --------------------------------------------------------------------------
# Compact counters
# --------------------------------------------------------------------------

_UNITS: tuple[tuple[int, str], ...] = ((10**3, "K"), (10**6, "M"), (10**9, "B"))
_ONE_DECIMAL = Decimal("0.1")


def _to_decimal(value: object) -> Decimal | None:
    """Parse ``value`` into a finite Decimal, or ``None`` if not numeric.

    Decimal (rather than float) arithmetic keeps rounding exact, so e.g.
    1050 becomes ``'1.1K'`` under half-up rounding instead of depending on
    binary float representation. ``bool`` is rejected on purpose: a flag is
    never a count.
    """
    if value is None or isinstance(value, bool):
        return None
    try:
        if isinstance(value, str):
            number = Decimal(value.strip())
        elif isinstance(value, (int, float, Decimal)):
            number = Decimal(value)
        else:
            return None
    except (InvalidOperation, ValueError, TypeError):
        return None
    return number if number.is_finite() else None


def format_count(value: object) -> str:
    """Format a view/like count compactly: ``999``, ``1.5K``, ``2.0M``, ``3.1B``.

    * ``None``, ``''``, non-numeric strings, NaN/inf and other junk -> ``'0'``.
    * Values are rounded half-up; below 1000 the integer is shown as-is.
    * From 1000 on, one decimal with ``K``/``M``/``B``. If rounding reaches
      1000 of a unit the next unit is used (999_950 -> ``'1.0M'``, not
      ``'1000.0K'``). ``B`` is the largest unit and is never promoted.
    * Negative numbers keep a leading minus sign; values that round to zero
      never print ``'-0'``.
    """
    if type(value) is int:
        return _format_int_count(value)
    number = _to_decimal(value)
    if number is None:
        return "0"

    sign = "-" if number < 0 else ""
    magnitude = abs(number)
    with localcontext() as ctx:
        # Enough precision that quantize() never fails on huge inputs.
        ctx.prec = max(28, magnitude.adjusted() + 4)
        ctx.rounding = ROUND_HALF_UP

        whole = magnitude.quantize(Decimal(1))
        if whole < 1000:
            return f"{sign}{whole:f}" if whole else "0"

        for index, (divisor, suffix) in enumerate(_UNITS):
            scaled = (magnitude / divisor).quantize(_ONE_DECIMAL)
            if scaled < 1000 or index == len(_UNITS) - 1:
                return f"{sign}{scaled:f}{suffix}"
    raise AssertionError("unreachable")  # pragma: no cover


def _format_int_count(value: int) -> str:
    """format_count of an int in integer arithmetic: the same text, without
    Decimal's context (a tenth of the time; counts are ints on every page)."""
    sign, magnitude = ("-" if value < 0 else ""), abs(value)
    if magnitude < 1000:
        return f"{sign}{magnitude}" if magnitude else "0"
    for index, (divisor, suffix) in enumerate(_UNITS):
        tenths = (magnitude * 20 + divisor) // (2 * divisor)  # magnitude / divisor in tenths, half up
        if tenths < 10_000 or index == len(_UNITS) - 1:
            return f"{sign}{tenths // 10}.{tenths % 10}{suffix}"
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------
# Throttling
# --------------------------------------------------------------------------


class Throttle:
    """Rate gate: at most one allowed call per ``interval_seconds``.

    Used to stop UI events (scroll, resize, repeated clicks) from flooding
    the server. The interval is measured from the last *allowed* call, so a
    steady stream of rejected calls cannot postpone the next allowed one. A
    call exactly ``interval_seconds`` after the last allowed one is allowed.
    ``clock`` is injectable so tests can use a fake clock instead of sleeping.
    """

    def __init__(
        self,
        interval_seconds: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if interval_seconds < 0:
            raise ValueError("interval_seconds must be >= 0")
        self.interval_seconds = float(interval_seconds)
        self._clock = clock
        self._last_allowed: float | None = None
        self._lock = threading.Lock()

    def allow(self) -> bool:
        """Return True and start a new interval if enough time has passed."""
        with self._lock:
            now = self._clock()
            if (
                self._last_allowed is None
                or now - self._last_allowed >= self.interval_seconds
            ):
                self._last_allowed = now
                return True
            return False

    def reset(self) -> None:
        """Forget the last allowed call so the next ``allow()`` succeeds."""
        with self._lock:
            self._last_allowed = None
