"""Reading done without a connection, as the browser reports it once back
online (assets/js/offline/store.js keeps it meanwhile): pure functions.

Each report is the last position in one chapter, with the furthest page
reached there, and the device's time. They join the history the way live
reports do (ReaderState.save_progress): the chapter becomes the series'
latest unless the history already holds a later reading of the series, and
a chapter whose last page was reached is read (既読)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from manga_app.accounts import reading
from manga_app.core import routes
from manga_app.accounts import payloads

# Reports taken in one upload (the browser keeps at most this many).
MAX_REPORTS = 200


@dataclass(frozen=True)
class OfflineReport:
    path: str
    params: dict[str, str]
    position: payloads.Position  # slug, chapter, page, offset, the device's time
    chapter: str  # the number as in URLs and the history
    furthest: int


@dataclass(frozen=True)
class Upload:
    reports: list[OfflineReport]  # the well-formed ones, oldest first
    bad: int  # how many were not
    # The newest `at` among all items (ms): the browser's outbox is taken up
    # to there, malformed items included, so nothing is sent again forever.
    through: int


def parse_reports(raw: object, *, now: datetime) -> Upload:
    if not isinstance(raw, list):
        return Upload([], 1, 0)
    found: list[OfflineReport] = []
    bad, through = max(0, len(raw) - MAX_REPORTS), 0
    for item in raw[:MAX_REPORTS]:
        at = item.get("at") if isinstance(item, dict) else None
        if isinstance(at, (int, float)) and not isinstance(at, bool) and 0 <= at <= 10**14:
            through = max(through, int(at))
        report = _report(item, now=now)
        if report is None:
            bad += 1
        else:
            found.append(report)
    return Upload(sorted(found, key=lambda report: report.position.at), bad, through)


def _report(item: object, *, now: datetime) -> OfflineReport | None:
    if not isinstance(item, dict) or not isinstance(item.get("path"), str):
        return None
    params = routes.parse_reader_path(item["path"])
    at, furthest = item.get("at"), item.get("furthest", 0)
    if params is None or isinstance(furthest, bool) or not isinstance(furthest, int) or not 0 <= furthest <= payloads.MAX_PAGE:
        return None
    number = params["number"]
    position = payloads.reported_position(params["slug"], number, item.get("page"), item.get("offset"), at, now=now)
    if position is None:
        return None
    return OfflineReport(item["path"], params, position, number, max(furthest, position.page))


def finished(report: OfflineReport, page_count: int) -> payloads.Position:
    """The report's position, read to the end when its furthest page was the last."""
    return replace(report.position, finished=report.furthest + 1 >= page_count)


def into_history(
    entries: list[reading.HistoryEntry], report: OfflineReport, entry: reading.HistoryEntry, *, page_count: int
) -> list[reading.HistoryEntry]:
    """The history with an offline reading (`entry`: the chapter at the
    reported position and time)."""
    current = reading.entry_for(entries, entry.slug)
    done = report.furthest + 1 >= page_count
    if current is not None and current.read_at > entry.read_at:
        # The series was read later (another tab, or online since): this
        # chapter gets its marks (既読, or where it was left), not the lead.
        marked = reading.entry_for(reading.record(entries, entry, finished=done), entry.slug)
        kept = replace(current, read=marked.read, opened=marked.opened)
        return [kept if item.slug == entry.slug else item for item in entries]
    return reading.record(entries, entry, finished=done)
