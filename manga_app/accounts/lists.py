"""Reading lists: the status of every series in a reader's library
(読みたい・読んでる・読了・中断), the /library page's tabs and sorts, and
which units count as unread. Pure: no framework imports.

A unit key is the catalogue's (integer hundredths; a volume is
routes.VOLUME_KEY plus its number). The unread units of a series are those
after the furthest one the reader finished, of that one's kind: after
chapter 12, the chapters past 12; after volume 3 (and no chapter), the
volumes past 3. With nothing finished, every unit is unread."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, urlencode

from manga_app.core import routes

WANT, READING, FINISHED, PAUSED = "want", "reading", "finished", "paused"
# In the tabs' order.
STATUSES = (WANT, READING, FINISHED, PAUSED)
LABELS = {WANT: "読みたい", READING: "読んでる", FINISHED: "読了", PAUSED: "中断"}
# Following a series puts it here unless the reader picks another status.
DEFAULT = READING

UPDATED, TITLE, ADDED = "updated", "title", "added"
SORTS = (UPDATED, TITLE, ADDED)
SORT_LABELS = {UPDATED: "更新順", TITLE: "タイトル順", ADDED: "追加順"}

VOLUME_START = int(routes.VOLUME_KEY * 100)
# Past every unit key (payloads.MAX_CHAPTER_HUNDREDTHS).
BEYOND = int((routes.VOLUME_KEY + 100_000) * 100)


def valid_status(value: object) -> str | None:
    return value if isinstance(value, str) and value in STATUSES else None


@dataclass(frozen=True)
class LibraryQuery:
    """`/library?status=…&sort=…`: a malformed value is the default."""

    status: str = READING
    sort: str = UPDATED


def parse_query(query: str) -> LibraryQuery:
    values = parse_qs(query or "", keep_blank_values=True)
    status = valid_status((values.get("status") or [""])[0]) or READING
    sort = (values.get("sort") or [""])[0]
    return LibraryQuery(status, sort if sort in SORTS else UPDATED)


def library_url(status: str, sort: str) -> str:
    params = {"status": status} | ({"sort": sort} if sort != UPDATED else {})
    return "/library?" + urlencode(params)


@dataclass(frozen=True)
class Unread:
    """Which unit keys of a series are unread: those strictly between `after` and `before`."""

    after: int
    before: int

    def counts(self, key: int) -> bool:
        return self.after < key < self.before


def unread_range(finished: list[int] | tuple[int, ...] | set[int]) -> Unread:
    """The unread units after the furthest finished one (see the module docstring)."""
    chapters = [key for key in finished if key < VOLUME_START]
    if chapters:
        return Unread(max(chapters), VOLUME_START)
    volumes = [key for key in finished if key >= VOLUME_START]
    if volumes:
        return Unread(max(volumes), BEYOND)
    return Unread(-1, BEYOND)


def unread_label(count: int, volumes: bool) -> str:
    """未読3話 / 未読2巻; "" for none."""
    return f"未読{count}{'巻' if volumes else '話'}" if count > 0 else ""


def has_update(latest_published: datetime | None, seen: list[datetime | None]) -> bool:
    """更新あり: a unit was published after the reader last opened or read the
    series (when they added it, if never); never for a series never seen."""
    marks = [moment for moment in seen if moment is not None]
    return latest_published is not None and bool(marks) and latest_published > max(marks)


@dataclass(frozen=True)
class Shelved:
    """A series in the library as the tabs sort it."""

    slug: str
    status: str
    title_key: str
    updated_at: datetime
    added_at: datetime


def tab_counts(rows: list[Shelved]) -> dict[str, int]:
    counts = dict.fromkeys(STATUSES, 0)
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    return counts


def shelf(rows: list[Shelved], query: LibraryQuery) -> list[Shelved]:
    """The rows of the query's tab in its order: latest update, title
    (ascending) or when added, newest first."""
    chosen = [row for row in rows if row.status == query.status]
    if query.sort == TITLE:
        return sorted(chosen, key=lambda row: (row.title_key, row.slug))
    if query.sort == ADDED:
        return sorted(chosen, key=lambda row: row.added_at, reverse=True)
    return sorted(chosen, key=lambda row: row.updated_at, reverse=True)


def completes(*, series_status: str, unit_key: int, unit_keys: list[int]) -> bool:
    """Reading `unit_key` to its end finishes a 完結 series: it is the last
    unit of its kind (the last chapter; the last volume of a series in volumes)."""
    if series_status != "completed":
        return False
    volume = unit_key >= VOLUME_START
    same_kind = [key for key in unit_keys if (key >= VOLUME_START) == volume]
    return bool(same_kind) and unit_key >= max(same_kind)


def unread_of(finished_any_chapter: bool, finished_any_volume: bool, chapters: int, volumes: int) -> tuple[int, bool]:
    """(count, in volumes) of a series whose unread chapters and volumes
    were counted in its unread range: the kind of the furthest finished
    unit, else chapters when it has any."""
    if finished_any_chapter:
        return chapters, False
    if finished_any_volume or not chapters:
        return volumes, True
    return chapters, False
