"""What the browser may send about a visitor's library, checked before it
touches the database: at most MAX_MERGE entries, slugs of the slug shape,
positions in range, timestamps no later than now. Pure: no framework imports.

Also the browser's own follow list (localStorage) for visitors who never sign
in, in the spirit of manga_app/accounts/reading.py."""

from __future__ import annotations

import json
import re
import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation

from manga_app.accounts import reading
from manga_app.core import routes
from manga_app.accounts import lists

MAX_MERGE = 500
MAX_SLUG = 100
MAX_PAGE = 10_000
# The browser's follow list: at most MAX_MERGE entries of a slug of MAX_SLUG
# characters, a status and a time, so anything much longer than that was not
# written by this site.
MAX_FOLLOWS_CHARS = MAX_MERGE * (MAX_SLUG + 70) + 2
# The reader's history JSON (reading.py caps entries, not characters): far
# above what 200 series ever take, far below what would hurt a worker.
MAX_HISTORY_CHARS = 1_000_000
# A device's reading time may be this far off the server's.
PAST_WINDOW = timedelta(days=30)
FUTURE_WINDOW = timedelta(minutes=5)
# Unit keys as in the catalogue, two decimals at most: chapters below
# 100000, volumes at routes.VOLUME_KEY + their number (the same range above it).
MAX_CHAPTER_HUNDREDTHS = int((routes.VOLUME_KEY + 100_000) * 100) - 1
MARK_BEFORE = timedelta(seconds=1)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Position:
    """A checked reading position, ready for repository.record_progress."""

    slug: str
    chapter_hundredths: int
    page: int
    offset: float
    at: datetime
    # The chapter's last page was reached (read, 既読).
    finished: bool = False


def valid_slug(value: object) -> str | None:
    if isinstance(value, str) and len(value) <= MAX_SLUG and _SLUG.match(value):
        return value
    return None


def chapter_hundredths(value: object) -> int | None:
    """'12' -> 1200, '10.5' -> 1050; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)) or len(str(value)) > 12:
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    if not number.is_finite() or number < 0:
        return None
    scaled = number * 100
    if scaled != scaled.to_integral_value() or scaled > MAX_CHAPTER_HUNDREDTHS:
        return None
    return int(scaled)


def position(slug: object, chapter: object, page: object, offset: object, at: datetime, *, now: datetime) -> Position | None:
    """A position the reader reported, or None when any part is out of range."""
    slug, hundredths = valid_slug(slug), chapter_hundredths(chapter)
    if slug is None or hundredths is None:
        return None
    if isinstance(page, bool) or not isinstance(page, int) or not 0 <= page <= MAX_PAGE:
        return None
    if isinstance(offset, bool) or not isinstance(offset, (int, float)) or not 0.0 <= float(offset) <= 1.0:
        return None
    return Position(slug, hundredths, page, float(offset), min(at, now))


def reported_position(
    slug: object, chapter: object, page: object, offset: object, read_at_ms: object, *, now: datetime
) -> Position | None:
    """What the reader sends (read_at: the device's clock, epoch ms), or None
    when any part is malformed. The device's time is clamped to
    [now - PAST_WINDOW, now + FUTURE_WINDOW]: a wrong clock can reorder the
    user's own writes a little, never pin an entry forever."""
    if isinstance(read_at_ms, bool) or not isinstance(read_at_ms, (int, float)) or not math.isfinite(read_at_ms):
        return None
    if not 0 <= read_at_ms <= 10**14:
        return None
    at = datetime.fromtimestamp(read_at_ms / 1000, UTC)
    at = min(max(at, now - PAST_WINDOW), now + FUTURE_WINDOW)
    return position(slug, chapter, page, offset, at, now=now + FUTURE_WINDOW)


def at_page_of(found: Position, page_count: int) -> Position:
    """A reported position in a chapter of `page_count` pages: finished when
    its page is the last one (the reader reports the end card as the last
    page). A page past the end (a chapter re-imported shorter meanwhile)
    is kept as sent: resuming clamps it."""
    return replace(found, finished=found.finished or found.page + 1 >= page_count)


def positions_from_history(entries: list[reading.HistoryEntry], *, now: datetime) -> tuple[list[Position], list[Position]]:
    """The browser's history as (last positions, other chapters), newest
    first, MAX_MERGE entries in all; garbage entries are dropped. Of the
    other chapters, those read to the end come as `finished` marks without a
    position (page 0), those left part-way with the page they were left at."""
    latest: list[Position] = []
    marks: list[Position] = []
    for entry in entries:
        at = parse_time(entry.read_at) or now
        found = position(entry.slug, entry.chapter, entry.page, entry.offset, at, now=now)
        if found is None:
            continue
        latest.append(replace(found, finished=entry.chapter in entry.read))
        # A hair older than the position, so the series' last chapter stays
        # the one the position names.
        before = found.at - MARK_BEFORE
        others = [(number, 0, True) for number in entry.read] + [(number, page, False) for number, page in entry.opened]
        for number, page, finished in others:
            hundredths = chapter_hundredths(number)
            if hundredths is not None and hundredths != found.chapter_hundredths and 0 <= page <= MAX_PAGE:
                marks.append(Position(found.slug, hundredths, page, 0.0, before, finished))
    latest = latest[:MAX_MERGE]
    return latest, marks[: MAX_MERGE - len(latest)]


def parse_time(value: object) -> datetime | None:
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


# --- follows kept in the browser -------------------------------------------


class StoreTooLarge(ValueError):
    """A browser store far larger than this site ever writes: refused whole."""


@dataclass(frozen=True)
class BrowserFollow:
    """A series of the browser's own library: its status (lists.STATUSES)
    and when it was added (ISO 8601, "" when unknown). Stored as
    {"slug", "status", "added"}; a bare slug (this site's older format) is
    読んでる, added at an unknown time."""

    slug: str
    status: str = lists.DEFAULT
    added: str = ""


def _browser_follow(item: object) -> BrowserFollow | None:
    if isinstance(item, str):
        return BrowserFollow(item) if valid_slug(item) else None
    if not isinstance(item, dict) or valid_slug(item.get("slug")) is None:
        return None
    added = item.get("added")
    return BrowserFollow(item["slug"], lists.valid_status(item.get("status")) or lists.DEFAULT,
                         added if parse_time(added) is not None else "")


def parse_library(text: str) -> list[BrowserFollow]:
    """The browser's library, newest follow first, tolerating garbage
    (localStorage is editable); StoreTooLarge past MAX_FOLLOWS_CHARS."""
    if isinstance(text, str) and len(text) > MAX_FOLLOWS_CHARS:
        raise StoreTooLarge("follows")
    try:
        raw = json.loads(text) if text else []
    except (ValueError, TypeError):
        return []
    found: dict[str, BrowserFollow] = {}
    for item in raw if isinstance(raw, list) else []:
        entry = _browser_follow(item)
        if entry is not None:
            found.setdefault(entry.slug, entry)
    return list(found.values())[:MAX_MERGE]


def dump_library(entries: list[BrowserFollow]) -> str:
    rows = [{"slug": entry.slug, "status": entry.status, "added": entry.added} for entry in entries]
    return json.dumps(rows[:MAX_MERGE], separators=(",", ":"), ensure_ascii=False)


def with_status(entries: list[BrowserFollow], slug: str, status: str, *, added: str) -> list[BrowserFollow] | None:
    """The library with `slug` at `status` (added first when missing); None
    when adding it would pass MAX_MERGE."""
    if any(entry.slug == slug for entry in entries):
        return [replace(entry, status=status) if entry.slug == slug else entry for entry in entries]
    if len(entries) >= MAX_MERGE:
        return None
    return [BrowserFollow(slug, status, added), *entries]


def parse_follows(text: str) -> list[str]:
    """The slugs of parse_library, newest follow first."""
    return [entry.slug for entry in parse_library(text)]


def check_history_size(text: object) -> None:
    if isinstance(text, str) and len(text) > MAX_HISTORY_CHARS:
        raise StoreTooLarge("history")
