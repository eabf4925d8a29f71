"""The account's history and the browser's copy of it (the reader's format,
manga_app/accounts/reading.py), as plain functions: which browser entries the server
has not seen yet, and the account's history written in the browser format."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from manga_app.accounts import reading
from manga_app.accounts import payloads
from manga_app.accounts.progress import HistoryRow
from manga_app.catalogue.naming import format_hundredths


@dataclass(frozen=True)
class SeriesLook:
    """What the browser shows of a series next to its history entry."""

    title: str
    cover: str


def unsent(local: list[reading.HistoryEntry], rows: list[HistoryRow]) -> list[reading.HistoryEntry]:
    """Browser entries the account lacks: a series it has no row for, a
    later reading time than its row, a chapter read to the end it does not
    have as read, or a chapter opened it has no row of."""
    server = {row.series_slug: row for row in rows}
    found: list[reading.HistoryEntry] = []
    for entry in local:
        row = server.get(entry.slug)
        at = payloads.parse_time(entry.read_at)
        if row is None or (at is not None and at > row.updated_at):
            found.append(entry)
            continue
        finished = {payloads.chapter_hundredths(number) for number in entry.read} - {None}
        opened = {payloads.chapter_hundredths(number) for number in (entry.chapter, *(number for number, _ in entry.opened))}
        known = {*row.read, *(number for number, _ in row.opened)}
        if finished - set(row.read) or (opened - {None}) - known:
            found.append(entry)
    return found


def mirror(
    rows: list[HistoryRow], local: list[reading.HistoryEntry], look: Callable[[str], SeriesLook | None]
) -> list[reading.HistoryEntry]:
    """The account's history in the browser format, newest first. The
    account is the truth (the browser's news were sent first): a series it
    does not have is gone, as removed elsewhere. Series unknown to the
    catalogue are left out."""
    by_slug = {entry.slug: entry for entry in local}
    entries: list[reading.HistoryEntry] = []
    for row in rows:
        series = look(row.series_slug)
        if series is None:
            continue
        chapter = format_hundredths(row.chapter_hundredths)
        mine = by_slug.get(row.series_slug)
        title = row.chapter_title or (mine.chapter_title if mine and mine.chapter == chapter else "")
        entries.append(
            reading.HistoryEntry(
                slug=row.series_slug,
                title=series.title,
                cover=series.cover,
                chapter=chapter,
                chapter_title=title,
                page=row.page,
                offset=row.offset,
                read_at=reading.now_iso(row.updated_at),
                read=tuple(format_hundredths(number) for number in row.read)[-reading.MAX_READ_MARKS :],
                opened=tuple((format_hundredths(number), page) for number, page in row.opened)[-reading.MAX_READ_MARKS :],
            )
        )
    return entries[: reading.MAX_SERIES]
