"""Reading history and progress, as pure functions over plain data.

A visitor who is not signed in keeps this in the browser (localStorage, see
visitor/reading_state.py); the accounts issue moves it to the server for signed-in
visitors. One entry per series: the last chapter read there, the position
inside it, the chapters read to their last page (`read`: the title page's
既読) and the chapters opened and left part-way with the page they were left
at (`opened`: the title page's "5/8").

History written before `opened` existed counted every chapter opened as
read; see `parse_history` for how it is carried over."""

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
    # Chapters whose last page (or end card) was reached.
    read: tuple[str, ...] = field(default_factory=tuple)
    # Chapters opened and not finished: (chapter, 0-based page left at), oldest first.
    opened: tuple[tuple[str, int], ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class ChapterMarks:
    """A series' marks as the title page shows them."""

    read: tuple[str, ...]
    # chapter -> (0-based page left at, the chapter's page count)
    left: dict[str, tuple[int, int]]


def parse_history(text: str) -> list[HistoryEntry]:
    """The stored JSON, tolerating garbage (a visitor can edit localStorage)."""
    try:
        raw = json.loads(text) if text else []
    except (ValueError, TypeError):
        return []
    entries: list[HistoryEntry] = []
    for item in raw if isinstance(raw, list) else []:
        try:
            entry = HistoryEntry(
                slug=str(item["slug"]),
                title=str(item.get("title", "")),
                cover=str(item.get("cover", "")),
                chapter=str(item["chapter"]),
                chapter_title=str(item.get("chapter_title", "")),
                page=max(0, int(item.get("page", 0))),
                offset=min(1.0, max(0.0, float(item.get("offset", 0.0)))),
                read_at=str(item.get("read_at", "")),
                read=tuple(str(number) for number in item.get("read", ()))[:MAX_READ_MARKS],
                opened=tuple((str(number), max(0, int(page))) for number, page in item.get("opened", ()))[-MAX_READ_MARKS:],
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
        entries.append(entry if "opened" in item else migrate_entry(entry))
    return entries[:MAX_SERIES]


def migrate_entry(entry: HistoryEntry) -> HistoryEntry:
    """An entry written before reaching the end was told apart from opening.
    Its `read` held every chapter opened. The chapter it names has a known
    position: it becomes a chapter left at that page (chapter_marks shows it
    as read when that page is its last). The others were left for a later
    chapter, which the old reader mostly did at the end card, and their
    position was never kept: they stay read rather than lose their marks."""
    return replace(
        entry,
        read=tuple(number for number in entry.read if number != entry.chapter),
        opened=((entry.chapter, entry.page),),
    )


def dump_history(entries: list[HistoryEntry]) -> str:
    return json.dumps([asdict(entry) for entry in entries[:MAX_SERIES]], ensure_ascii=False, separators=(",", ":"))


def record(entries: list[HistoryEntry], entry: HistoryEntry, *, finished: bool) -> list[HistoryEntry]:
    """The series' last chapter is now `entry`'s, newest first. `finished`:
    its last page was reached, and it is read from then on (going back to
    an earlier page does not take that away); otherwise it is left at
    `entry.page`. The series' marks of other chapters are kept."""
    previous = next((item for item in entries if item.slug == entry.slug), None)
    read, opened = _marks(previous, entry.chapter, entry.page, finished)
    updated = replace(entry, read=read, opened=opened)
    return [updated, *(item for item in entries if item.slug != entry.slug)][:MAX_SERIES]


def left_at(entries: list[HistoryEntry], slug: str, chapter: str, page: int, offset: float) -> list[HistoryEntry]:
    """The last report of a chapter the visitor has just left: its page is
    kept, but it does not become the series' latest chapter again."""
    updated: list[HistoryEntry] = []
    for item in entries:
        if item.slug == slug and (item.chapter == chapter or any(number == chapter for number, _ in item.opened)):
            read, opened = _marks(item, chapter, page, False)
            moved = {"page": page, "offset": offset} if item.chapter == chapter else {}
            item = replace(item, read=read, opened=opened, **moved)
        updated.append(item)
    return updated


def _marks(previous: HistoryEntry | None, chapter: str, page: int, finished: bool) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    read = previous.read if previous else ()
    opened = tuple(item for item in (previous.opened if previous else ()) if item[0] != chapter)
    if finished or chapter in read:
        read = tuple(dict.fromkeys((*read, chapter)))
    else:
        opened = (*opened, (chapter, page))
    return read[-MAX_READ_MARKS:], opened[-MAX_READ_MARKS:]


def chapter_marks(entry: HistoryEntry | None, page_counts: dict[str, int]) -> ChapterMarks:
    """What the title page shows of a series' history: 既読 for chapters read
    to the end (or left on their last page: a migrated entry, or the last
    report of a chapter left), and the page for chapters left part-way.
    Chapters the catalogue no longer has are left out."""
    if entry is None:
        return ChapterMarks((), {})
    read = [number for number in entry.read if number in page_counts]
    left: dict[str, tuple[int, int]] = {}
    for number, page in entry.opened:
        total = page_counts.get(number, 0)
        if total <= 0 or number in entry.read:
            continue
        if page + 1 >= total:
            read.append(number)
        else:
            left[number] = (page, total)
    return ChapterMarks(tuple(dict.fromkeys(read)), left)


def remove(entries: list[HistoryEntry], slug: str) -> list[HistoryEntry]:
    return [item for item in entries if item.slug != slug]


def entry_for(entries: list[HistoryEntry], slug: str) -> HistoryEntry | None:
    return next((item for item in entries if item.slug == slug), None)


def now_iso(now: datetime | None = None) -> str:
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
