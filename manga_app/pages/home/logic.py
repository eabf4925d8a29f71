"""The home's 続きを読む shelf, from the visitor's reading history. No
framework imports."""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from datetime import UTC, datetime

from manga_app.core import routes
from manga_app.accounts import reading
from manga_app.cards.records import Part, phrase_parts

CONTINUE_COUNT = 12


@dataclass
class ContinueCard:
    """A chapter left part-way: its series, the chapter and the page to go back to."""

    slug: str = ""
    title: str = ""
    cover: str = ""
    parts: list[Part] = field(default_factory=list)
    chapter_label: str = ""
    page_label: str = ""
    # The chapter's reader: it reopens at the page left (the history's
    # position of the series' last chapter, reader/logic.resume_position).
    url: str = ""


def _read_at(entry: reading.HistoryEntry) -> datetime:
    try:
        moment = datetime.fromisoformat(entry.read_at)
    except (TypeError, ValueError):
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def continue_cards(entries: list[reading.HistoryEntry], *, known: Container[str] | None = None) -> list[ContinueCard]:
    """The series whose last chapter read was left before its end, most
    recently read first (at most CONTINUE_COUNT); `known`: the slugs still
    in the catalogue, when given."""
    unfinished = [
        entry for entry in entries
        if entry.chapter not in entry.read and (known is None or entry.slug in known)
    ]
    unfinished.sort(key=_read_at, reverse=True)
    return [
        ContinueCard(
            slug=entry.slug,
            title=entry.title,
            cover=entry.cover,
            parts=phrase_parts(entry.title),
            chapter_label=routes.unit_label(entry.chapter),
            page_label=f"{entry.page + 1}ページ目から",
            url=routes.chapter_url(entry.slug, entry.chapter),
        )
        for entry in unfinished[:CONTINUE_COUNT]
    ]
