"""Reading history and progress, as pure functions over plain data.

A visitor who is not signed in keeps this in the browser (localStorage, see
state/reading.py); the accounts issue moves it to the server for signed-in
visitors. One entry per series: the last chapter read there, the position
inside it, and every chapter number read (the title page's read marks)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime

# Oldest entries are forgotten past this many series.
MAX_SERIES = 200
MAX_READ_MARKS = 2000


@dataclass(frozen=True)
class HistoryEntry:
    slug: str
    title: str
    cover: str
    chapter: str  # chapter number as in URLs: "12", "10.5"
    chapter_title: str
    page: int  # 0-based page index
    offset: float  # 0..1 inside a tall page (scroll position)
    read_at: str  # ISO 8601 UTC
    read: tuple[str, ...] = field(default_factory=tuple)


def parse_history(text: str) -> list[HistoryEntry]:
    """The stored JSON, tolerating garbage (a visitor can edit localStorage)."""
    try:
        raw = json.loads(text) if text else []
    except (ValueError, TypeError):
        return []
    entries: list[HistoryEntry] = []
    for item in raw if isinstance(raw, list) else []:
        try:
            entries.append(
                HistoryEntry(
                    slug=str(item["slug"]),
                    title=str(item.get("title", "")),
                    cover=str(item.get("cover", "")),
                    chapter=str(item["chapter"]),
                    chapter_title=str(item.get("chapter_title", "")),
                    page=max(0, int(item.get("page", 0))),
                    offset=min(1.0, max(0.0, float(item.get("offset", 0.0)))),
                    read_at=str(item.get("read_at", "")),
                    read=tuple(str(number) for number in item.get("read", ()))[:MAX_READ_MARKS],
                )
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return entries[:MAX_SERIES]


def dump_history(entries: list[HistoryEntry]) -> str:
    return json.dumps([asdict(entry) for entry in entries[:MAX_SERIES]], ensure_ascii=False, separators=(",", ":"))


def record(entries: list[HistoryEntry], entry: HistoryEntry) -> list[HistoryEntry]:
    """Newest first; the series' read marks keep growing."""
    previous = next((item for item in entries if item.slug == entry.slug), None)
    marks = tuple(dict.fromkeys((*(previous.read if previous else ()), entry.chapter)))
    updated = replace(entry, read=marks[-MAX_READ_MARKS:])
    return [updated, *(item for item in entries if item.slug != entry.slug)][:MAX_SERIES]


def remove(entries: list[HistoryEntry], slug: str) -> list[HistoryEntry]:
    return [item for item in entries if item.slug != slug]


def entry_for(entries: list[HistoryEntry], slug: str) -> HistoryEntry | None:
    return next((item for item in entries if item.slug == slug), None)


def now_iso(now: datetime | None = None) -> str:
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
