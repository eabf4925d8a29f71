"""The title page's state: the series, its chapters newest first, and the
visitor's read marks and 続きを読む from their reading history.

The history is the browser's (ReadingState), which for a signed-in visitor
mirrors the account's (LibraryState.sync): read marks and 続きを読む are
computed from it, so they follow when the mirror arrives after the page."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import ClassVar

import reflex as rx

from manga_app.accounts import reading
from manga_app.core import routes, shared
from manga_app.core.clock import page_now
from manga_app.core.display import STATUS_LABELS, format_count, relative_time_ja
from manga_app.read_models.title_cache import load_title
from manga_app.accounts import service
from manga_app.search.held_index import ready_memberships
from manga_app.search.related import related
from manga_app.cards.records import Card, ChapterRow, Chip, Part, card_for, cover_avif_srcset, phrase_parts
from manga_app.visitor.reading_state import ReadingState
from manga_app.pages.title.logic import chapter_rows, first_url

# The title pages' lists, held once for all their visitors.
_SHARED = shared.Shared()


def _title_and_followers(slug: str):
    """The title (held by the head's read a moment before) and its follower
    count, in one trip to a worker thread rather than two."""
    loaded = load_title(slug)
    return loaded, (service.followers(loaded[0].slug) if loaded is not None else 0)


@dataclass
class Name:
    """An author's or artist's name and how it is read ("" when the name is its reading)."""

    name: str = ""
    reading: str = ""
    url: str = ""  # their page (routes.author_url)


@dataclass
class TitleProgress:
    """The visitor's reading of this series."""

    read: list[str] = field(default_factory=list)  # chapter numbers read to the end
    # Chapters left part-way: number -> "5/8", and the bar's width ("62.5%").
    left: dict[str, str] = field(default_factory=dict)
    left_width: dict[str, str] = field(default_factory=dict)
    continue_url: str = ""
    continue_label: str = ""


class TitleState(rx.State):
    page_content: ClassVar[bool] = True  # the same for every visitor, all from on_load (platform/page_content.py)
    slug: str = ""
    title: str = ""
    aliases: list[str] = []
    authors: list[Name] = []
    genres: list[Chip] = []
    tags: list[Chip] = []
    status_label: str = ""
    summary: str = ""
    views: str = "0"
    cover: str = ""
    cover_srcset: str = ""
    cover_avif_srcset: str = ""  # the same sizes as AVIF ("" when the covers have none)
    updated: str = ""
    chapters: list[ChapterRow] = []
    volumes: list[ChapterRow] = []
    first_url: str = ""
    followers: str = "0"  # accounts following the series (format_count)
    # 関連作品: the same author's series, then those sharing tags and genres (search/related.py).
    related: list[Card] = []
    loaded: bool = False

    @rx.var
    def title_parts(self) -> list[Part]:
        return phrase_parts(self.title)

    @rx.var
    def alias_parts(self) -> list[list[Part]]:
        return [phrase_parts(alias) for alias in self.aliases]

    @rx.var
    async def progress(self) -> TitleProgress:
        history = await self.get_state(ReadingState)
        entry = reading.entry_for(history._entries(), self.slug) if self.slug else None
        if entry is None:
            return TitleProgress()
        units = [*self.chapters, *self.volumes]
        last = next((chapter for chapter in units if chapter.number == entry.chapter), None)
        marks = reading.chapter_marks(entry, {unit.number: unit.pages for unit in units})
        return TitleProgress(
            read=sorted(marks.read),
            left={number: f"{page + 1}/{total}" for number, (page, total) in marks.left.items()},
            left_width={number: f"{100 * (page + 1) / total:.1f}%" for number, (page, total) in marks.left.items()},
            continue_url=last.url if last else "",
            continue_label=f"続きを読む {last.label}・{entry.page + 1}ページ目" if last else "",
        )

    @rx.event
    async def load(self):
        found = routes.match(self.router.url.path or "/")
        slug = found.params.get("slug", "") if found and found.kind is routes.PageKind.MANGA else ""
        loaded, following = await asyncio.to_thread(_title_and_followers, slug) if slug else (None, 0)
        if slug != self.slug:
            self.loaded = False
        if loaded is None:
            self.slug, self.title, self.chapters, self.volumes = slug, "", [], []
            return
        series, units = loaded
        now = page_now()

        def share(name: str, value):
            # Every visitor of this title holds the same lists: one copy (core/shared.py).
            return _SHARED.one((series.slug, name), value)

        self.slug, self.title = series.slug, series.title
        self.aliases = share("aliases", list(series.alt_titles))
        said = dict(series.name_readings)
        names = dict.fromkeys((*series.authors, *series.artists))
        self.authors = share("authors", [Name(name=name, reading=said.get(name, ""), url=routes.author_url(name)) for name in names])
        self.genres = share("genres", [Chip(label=name, href=routes.genre_url(name)) for name in series.genres])
        self.tags = share("tags", [Chip(label="#" + name, href=routes.tag_url(name)) for name in series.tags])
        self.summary = series.summary
        self.status_label = STATUS_LABELS.get(series.status, "")
        self.views = shared.text(format_count(series.views))
        self.cover = series.cover_small or series.cover
        self.cover_srcset = shared.text(f"{series.cover_small} 160w, {series.cover} 320w") if series.cover_small else ""
        self.cover_avif_srcset = shared.text(cover_avif_srcset(series))
        self.updated = shared.text(relative_time_ja(series.updated_at, now=now))
        self.chapters = share("chapters", chapter_rows(units, "chapter", now))
        self.volumes = share("volumes", chapter_rows(units, "volume", now))
        self.first_url = first_url(units)
        self.followers = format_count(following)
        members = await ready_memberships()  # none yet (a big catalogue just loaded): no 関連作品 rather than a wait
        found = related(members, series.slug) if members is not None else []
        self.related = share("related", [card_for(item, now=now) for item in found])
        self.loaded = True
