"""The rules of the ranking, the weekday calendar and the card badges.

Pure: times come in as arguments, days are Asia/Tokyo calendar days (the
site's readers are in Japan; views reset at midnight JST as the view count
does). Every rule here is tested with tables of cases."""

from __future__ import annotations

from collections import Counter
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from urllib.parse import parse_qsl

JST = timezone(timedelta(hours=9), "Asia/Tokyo")

# Periods of the ranking, in the order of its tabs; the first is the default.
DAY, WEEK, MONTH, ALL = "day", "week", "month", "all"
PERIODS = (DAY, WEEK, MONTH, ALL)
PERIOD_LABELS = {DAY: "日間", WEEK: "週間", MONTH: "月間", ALL: "累計"}
# Days in a period's window (the all-time ranking reads running totals).
PERIOD_DAYS = {DAY: 1, WEEK: 7, MONTH: 30}
# Daily counts older than this serve no period: the month and the month
# before it (its movement) are the longest look back.
KEEP_VIEW_DAYS = 2 * PERIOD_DAYS[MONTH]

# Weekdays of the calendar (date.weekday() order) and the tab of the rest.
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
WEEKDAY_LABELS = dict(zip(WEEKDAYS, "月火水木金土日", strict=True))
IRREGULAR = "irregular"
DAY_LABELS = {**WEEKDAY_LABELS, IRREGULAR: "不定期"}
# The weekday rule's look back and thresholds (see usual_weekday).
WEEKDAY_LOOKBACK = timedelta(weeks=8)
WEEKDAY_MIN_DAYS = 3
WEEKDAY_MIN_SHARE = 2 / 3

# Card badges: how new a series and how recent its latest chapter may be.
NEW_SERIES = timedelta(days=7)
RECENT_CHAPTER = timedelta(hours=24)
COMPLETED, NEW, UPDATED = "completed", "new", "updated"
BADGE_LABELS = {COMPLETED: "完結", NEW: "NEW", UPDATED: "更新"}

UP, DOWN, FRESH, SAME = "up", "down", "new", "same"
MOVEMENT_LABELS = {UP: "↑", DOWN: "↓", FRESH: "NEW", SAME: "→"}


def tokyo_day(moment: datetime) -> date:
    """The calendar day in Japan at an aware `moment`."""
    return moment.astimezone(JST).date()


def parse_period(value: str | None) -> str:
    """A `?period=` value; anything else means the default (日間)."""
    return value if value in PERIODS else DAY


def parse_day(value: str | None, *, now: datetime) -> str:
    """A `?day=` value; anything else means today's weekday in Japan."""
    return value if value in DAY_LABELS else WEEKDAYS[tokyo_day(now).weekday()]


def window(period: str, today: date, *, back: int = 0) -> tuple[date, date] | None:
    """The first and last day (inclusive) of `period` ending `today`, or of
    the period `back` periods before it; None for the all-time ranking.

    日間 is today, 週間 the last 7 days and 月間 the last 30, today included:
    a ranking that moves during the day rather than yesterday's frozen one."""
    if period not in PERIOD_DAYS:
        return None
    length = PERIOD_DAYS[period]
    last = today - timedelta(days=length * back)
    return last - timedelta(days=length - 1), last


@dataclass(frozen=True)
class Ranked:
    """One place in a ranking: the series' id, its views in the period, its
    place (from 1) and its movement against the previous period."""

    key: int
    views: int
    rank: int
    movement: str


_MOVES = (UP, DOWN, FRESH, SAME)


class Ranking:
    """A whole ranking held compactly (typed arrays, no object per place: a
    process holds one per period and genre, for 100,000 series, and the
    garbage collector would walk them all); `places(start, stop)` builds the
    Ranked of one page."""

    def __init__(self, keys: array, views: array, moves: bytes) -> None:
        self.keys, self.views, self.moves = keys, views, moves

    def __len__(self) -> int:
        return len(self.keys)

    def places(self, start: int = 0, stop: int | None = None) -> list[Ranked]:
        stop = len(self.keys) if stop is None else min(stop, len(self.keys))
        return [Ranked(self.keys[i], self.views[i], i + 1, _MOVES[self.moves[i]]) for i in range(max(0, start), stop)]


def ranking(current: Mapping[int, int], previous: Mapping[int, int], *, keep: Iterable[int] | None = None,
            tie: Mapping[int, str] | None = None) -> list[Ranked]:
    """Series ordered by views in the period (most first; ties by `tie`, a
    sort key such as the slug, then by id), numbered 1, 2, 3…, with their
    movement against their place in `previous`. Only series with views are
    ranked; `keep` limits both rankings to some series (a genre's).

    A series ranked now but not before is NEW; same place →."""
    return rank_within(order(current, tie), order(previous, tie), current, keep=keep).places()


def order(views: Mapping[int, int], tie: Mapping[int, str] | None = None) -> array:
    """The keys with views, most first (see ranking)."""
    keys = [key for key, count in views.items() if count > 0]
    keys.sort(key=lambda key: (-views[key], tie.get(key, "") if tie else "", key))
    return array("q", keys)


def rank_within(now: Sequence[int], before: Sequence[int], views: Mapping[int, int], *,
                keep: Iterable[int] | None = None) -> Ranking:
    """A ranking from the orders of now and before (order()), renumbered
    within `keep` when given: one pass over each, no sorting, so a genre's
    ranking costs little once the whole ranking is ordered."""
    if keep is not None:
        kept = keep if isinstance(keep, (set, frozenset)) else set(keep)
        now = [key for key in now if key in kept]
        before = [key for key in before if key in kept]
    places = {key: place for place, key in enumerate(before, start=1)}
    moves = bytearray(len(now))
    for place, key in enumerate(now, start=1):
        was = places.get(key)
        moves[place - 1] = _MOVES.index(FRESH if was is None else UP if was > place else DOWN if was < place else SAME)
    return Ranking(array("q", now), array("q", (views[key] for key in now)), bytes(moves))


def usual_weekday(published: Iterable[datetime], *, now: datetime) -> str | None:
    """The weekday a series usually updates on, from its chapters' publication
    times, or None (不定期).

    The rule: take the distinct Japanese calendar days on which a chapter came
    out in the last 8 weeks before `now` (several chapters on one day count
    once, so a batch upload does not make a schedule). With at least 3 such
    days, the weekday holding at least two thirds of them is the series' day;
    otherwise it has no regular day."""
    since = now - WEEKDAY_LOOKBACK
    days = {tokyo_day(moment) for moment in published if since <= moment <= now}
    if len(days) < WEEKDAY_MIN_DAYS:
        return None
    weekday, count = Counter(day.weekday() for day in days).most_common(1)[0]
    return WEEKDAYS[weekday] if count >= WEEKDAY_MIN_SHARE * len(days) else None


def updated_today(latest: datetime, *, now: datetime) -> bool:
    """本日更新: the latest chapter came out today in Japan."""
    return tokyo_day(latest) == tokyo_day(now) and latest <= now


def badges(*, status: str, created_at: datetime, updated_at: datetime, now: datetime) -> list[str]:
    """The badges of a card, in display order: 完結 (completed), NEW (first
    published within 7 days), 更新 (a chapter within 24 hours)."""
    found = []
    if status == "completed":
        found.append(COMPLETED)
    if timedelta(0) <= now - created_at <= NEW_SERIES:
        found.append(NEW)
    if timedelta(0) <= now - updated_at <= RECENT_CHAPTER:
        found.append(UPDATED)
    return found


# The pages' queries. A malformed period, day or page means the default
# (日間, today's weekday, page 1): they only choose how the page is shown, so
# an old or mistyped link still shows something useful and the canonical
# address names the default. A genre names content: an unknown one is a 404
# (the page's head says so), never an empty ranking served as a real page.
RANKING_PER_PAGE = 30
CALENDAR_PER_PAGE = 24
_MAX_PAGE = 100_000


@dataclass(frozen=True)
class RankingQuery:
    period: str = DAY
    genre: str = ""
    page: int = 1


@dataclass(frozen=True)
class CalendarQuery:
    day: str
    chosen: bool  # the day was in the URL (else it is today's)
    page: int = 1


def parse_ranking_query(query_string: str) -> RankingQuery:
    values = _values(query_string)
    return RankingQuery(parse_period(values.get("period")), values.get("genre", "").strip(), _page(values.get("page")))


def parse_calendar_query(query_string: str, *, now: datetime) -> CalendarQuery:
    values = _values(query_string)
    day = parse_day(values.get("day"), now=now)
    return CalendarQuery(day, values.get("day") == day, _page(values.get("page")))


def _values(query_string: str) -> dict[str, str]:
    return dict(parse_qsl(query_string[:2000], errors="replace"))


def _page(value: str | None) -> int:
    return int(value) if value and value.isascii() and value.isdigit() and 1 <= int(value) <= _MAX_PAGE else 1
