"""What /library and /history show, as small typed rows built from plain
data (catalogue items, the history in the browser format, unread counts).
No Reflex import: dataclasses that state vars can hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from manga_app.reader import reading
from manga_app.core import routes
from manga_app.accounts import payloads
from manga_app.read_models.loader import MangaItem
from manga_app.ui.records import Moment, SeriesCard, moment, phrase_parts


@dataclass
class LibraryCard(SeriesCard):
    """A followed series on /library."""

    latest: str = ""
    updated: Moment = field(default_factory=Moment)
    # "新着3話": chapters published since the visitor last read the series
    # ("" when none, or never read).
    new: str = ""


@dataclass
class HistoryCard(SeriesCard):
    """A series on /history."""

    chapter: str = ""
    page: str = ""
    read: Moment = field(default_factory=Moment)
    continue_url: str = ""


def _read_at(entry: reading.HistoryEntry) -> datetime:
    return payloads.parse_time(entry.read_at) or datetime.min.replace(tzinfo=UTC)


def history_cards(entries: list[reading.HistoryEntry], *, now: datetime) -> list[HistoryCard]:
    """Most recently read first."""
    return [
        HistoryCard(
            slug=entry.slug,
            title=entry.title,
            parts=phrase_parts(entry.title),
            cover=entry.cover,
            url=routes.manga_url(entry.slug),
            chapter=routes.unit_label(entry.chapter, entry.chapter_title),
            page=f"{entry.page + 1}ページ目",
            read=moment(entry.read_at, now=now),
            continue_url=routes.chapter_url(entry.slug, entry.chapter),
        )
        for entry in sorted(entries, key=_read_at, reverse=True)
    ]


def last_read(entries: list[reading.HistoryEntry], slugs: list[str]) -> dict[str, datetime]:
    """When the visitor last read each of these series (those read at all)."""
    wanted = set(slugs)
    return {entry.slug: _read_at(entry) for entry in entries if entry.slug in wanted}


def library_cards(items: list[MangaItem], new: dict[str, int], *, now: datetime) -> list[LibraryCard]:
    """Newest update first, with the count of chapters new since last read."""
    return [
        LibraryCard(
            slug=item.slug,
            title=item.title,
            parts=phrase_parts(item.title),
            cover=item.cover_small or item.cover,
            url=routes.manga_url(item.slug),
            latest="最新 " + routes.unit_label(item.latest_chapter),
            updated=moment(item.updated_at, now=now),
            new=f"新着{new[item.slug]}話" if new.get(item.slug) else "",
        )
        for item in sorted(items, key=lambda item: item.updated_at, reverse=True)
    ]
