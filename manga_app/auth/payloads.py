"""What the browser may send about a visitor's library, checked before it
touches the database: at most MAX_MERGE entries, slugs of the slug shape,
positions in range, timestamps no later than now. Pure: no framework imports.

Also the browser's own follow list (localStorage) for visitors who never sign
in, in the spirit of manga_app/reading.py."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation

from manga_app import reading

MAX_MERGE = 500
MAX_SLUG = 100
MAX_PAGE = 10_000
# Chapter numbers as in the catalogue: < 100000, two decimals at most.
MAX_CHAPTER_HUNDREDTHS = 100_000 * 100 - 1
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Position:
    """A checked reading position, ready for repository.record_progress."""

    slug: str
    chapter_hundredths: int
    page: int
    offset: float
    at: datetime


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


def positions_from_history(entries: list[reading.HistoryEntry], *, now: datetime) -> tuple[list[Position], list[Position]]:
    """The browser's history as (last positions, read marks), newest first,
    MAX_MERGE entries in all; garbage entries are dropped."""
    latest: list[Position] = []
    marks: list[Position] = []
    for entry in entries:
        at = parse_time(entry.read_at) or now
        found = position(entry.slug, entry.chapter, entry.page, entry.offset, at, now=now)
        if found is None:
            continue
        latest.append(found)
        for number in entry.read:
            hundredths = chapter_hundredths(number)
            if hundredths is not None and hundredths != found.chapter_hundredths:
                marks.append(Position(found.slug, hundredths, 0, 0.0, found.at))
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


def parse_follows(text: str) -> list[str]:
    """Slugs, newest follow first, tolerating garbage (localStorage is editable)."""
    try:
        raw = json.loads(text) if text else []
    except (ValueError, TypeError):
        return []
    slugs = [slug for slug in (valid_slug(item) for item in (raw if isinstance(raw, list) else [])) if slug]
    return list(dict.fromkeys(slugs))[:MAX_MERGE]


def dump_follows(slugs: list[str]) -> str:
    return json.dumps(list(dict.fromkeys(slugs))[:MAX_MERGE], separators=(",", ":"))


def toggle_follow(slugs: list[str], slug: str) -> list[str]:
    return [item for item in slugs if item != slug] if slug in slugs else [slug, *slugs][:MAX_MERGE]
