"""What the title page shows, from the catalogue's read models: one pure
function for both the page's state (manga_state.TitleState) and the
server's first paint of the page (web/first_paint.py), so the two can never
show different things. No framework imports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from manga_app import routes
from manga_app.catalogue.views import ChapterView, SeriesView
from manga_app.display import format_count, relative_time_ja
from manga_app.state.browse import STATUS_LABELS, ChapterRow, Chip, chapter_label


@dataclass
class TitlePage:
    """Field for field what TitleState holds once loaded."""

    slug: str = ""
    title: str = ""
    aliases: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    genres: list[Chip] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    status_label: str = ""
    summary: str = ""
    views: str = "0"
    cover: str = ""
    cover_srcset: str = ""
    updated: str = ""
    chapters: list[ChapterRow] = field(default_factory=list)  # 話, newest first
    volumes: list[ChapterRow] = field(default_factory=list)  # 巻, newest first
    first_url: str = ""


def title_page(series: SeriesView, chapters: tuple[ChapterView, ...], *, now: datetime) -> TitlePage:
    return TitlePage(
        slug=series.slug,
        title=series.title,
        aliases=list(series.alt_titles),
        authors=list(dict.fromkeys((*series.authors, *series.artists))),
        genres=[Chip(label=name, href=routes.genre_url(name)) for name in series.genres],
        tags=list(series.tags),
        status_label=STATUS_LABELS.get(series.status, ""),
        summary=series.summary,
        views=format_count(series.views),
        cover=series.cover_small or series.cover,
        cover_srcset=f"{series.cover_small} 160w, {series.cover} 320w" if series.cover_small else "",
        updated=relative_time_ja(series.updated_at, now=now),
        chapters=_rows(chapters, "chapter", now),
        volumes=_rows(chapters, "volume", now),
        first_url=_first_url(chapters),
    )


def _rows(units: tuple[ChapterView, ...], kind: str, now: datetime) -> list[ChapterRow]:
    return [
        ChapterRow(
            number=unit.number,
            label=chapter_label(unit.number),
            title=unit.title,
            url=unit.url,
            time=relative_time_ja(unit.published_at, now=now),
            iso=unit.published_at.isoformat(),
            pages=unit.page_count,
        )
        for unit in reversed(units)
        if unit.kind == kind
    ]


def _first_url(units: tuple[ChapterView, ...]) -> str:
    """Where reading starts: volume 1 when there are volumes (they hold the early chapters)."""
    volumes = [unit for unit in units if unit.kind == "volume"]
    first = (volumes or list(units))[:1]
    return first[0].url if first else ""
