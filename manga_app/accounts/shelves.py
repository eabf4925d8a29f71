"""What /library and /history show, as small typed rows built from plain
data (catalogue items, the history in the browser format, unread counts).
No Reflex import: dataclasses that state vars can hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from manga_app.accounts import reading
from manga_app.core import routes
from manga_app.accounts import lists, payloads
from manga_app.core.gojuon import sort_key
from manga_app.read_models.loader import MangaItem
from manga_app.cards.records import Moment, SeriesCard, TabLink, moment, phrase_parts


@dataclass
class LibraryCard(SeriesCard):
    """A series in the library on /library."""

    latest: str = ""
    updated: Moment = field(default_factory=Moment)
    status: str = lists.DEFAULT
    # "未読3話": units after the furthest one the visitor finished ("" when none).
    unread: str = ""
    # 更新あり: a unit arrived since the visitor last opened the series.
    fresh: bool = False


@dataclass
class LibraryView:
    """What /library shows of one tab: its cards, the tabs with their
    counts, and the sort links."""

    cards: list[LibraryCard] = field(default_factory=list)
    tabs: list[TabLink] = field(default_factory=list)
    sorts: list[TabLink] = field(default_factory=list)


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


def browser_marks(entries: list[reading.HistoryEntry]) -> dict[str, tuple[tuple[int, ...], datetime]]:
    """slug -> (unit keys read to the end, when last read), from the browser's history."""
    marks = {}
    for entry in entries:
        keys = (payloads.chapter_hundredths(number) for number in entry.read)
        marks[entry.slug] = (tuple(key for key in keys if key is not None), _read_at(entry))
    return marks


def library_view(figures: list, items: dict[str, MangaItem], query: lists.LibraryQuery, *, now: datetime) -> LibraryView:
    """The query's tab of the library (`figures`: unread.SeriesFigures of
    series the catalogue holds, `items` their catalogue entries)."""
    known = [row for row in figures if row.slug in items]
    by_slug = {row.slug: row for row in known}
    shelved = [
        lists.Shelved(row.slug, row.status, sort_key(items[row.slug].title, items[row.slug].readings),
                      items[row.slug].updated_at, row.added_at)
        for row in known
    ]
    counts = lists.tab_counts(shelved)
    return LibraryView(
        cards=[_card(items[row.slug], by_slug[row.slug], now=now) for row in lists.shelf(shelved, query)],
        tabs=[TabLink(f"{lists.LABELS[status]} {counts[status]}", lists.library_url(status, query.sort), status == query.status)
              for status in lists.STATUSES],
        sorts=[TabLink(lists.SORT_LABELS[sort], lists.library_url(query.status, sort), sort == query.sort) for sort in lists.SORTS],
    )


def _card(item: MangaItem, row, *, now: datetime) -> LibraryCard:
    return LibraryCard(
        slug=item.slug,
        title=item.title,
        parts=phrase_parts(item.title),
        cover=item.cover_small or item.cover,
        url=routes.manga_url(item.slug),
        latest="最新 " + routes.unit_label(item.latest_chapter),
        updated=moment(item.updated_at, now=now),
        status=row.status,
        unread=lists.unread_label(row.unread, row.in_volumes),
        fresh=row.updated,
    )
