"""The parts of a title page (state.TitleState) made from the
catalogue's read models: its chapter and volume lists and where reading
starts. No framework imports."""

from __future__ import annotations

from datetime import datetime

from manga_app.core import routes
from manga_app.read_models.titles import ChapterView
from manga_app.cards.records import ChapterRow, moment


def chapter_rows(units: tuple[ChapterView, ...], kind: str, now: datetime) -> list[ChapterRow]:
    """The units of `kind` ("chapter" or "volume"), newest first."""
    return [
        ChapterRow(
            number=unit.number,
            segment=routes.unit_segment(unit.number),
            label=routes.unit_label(unit.number),
            title=unit.title,
            url=unit.url,
            published=moment(unit.published_at, now=now),
            pages=unit.page_count,
        )
        for unit in reversed(units)
        if unit.kind == kind
    ]


def first_url(units: tuple[ChapterView, ...]) -> str:
    """Where reading starts: volume 1 when there are volumes (they hold the early chapters)."""
    volumes = [unit for unit in units if unit.kind == "volume"]
    first = (volumes or list(units))[:1]
    return first[0].url if first else ""
