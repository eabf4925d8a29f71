"""Read models for pages: plain frozen dataclasses built from the database,
so views, heads and state never touch ORM rows (or a closed session)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from manga_app.core import routes
from manga_app.catalogue import repository
from manga_app.catalogue.media import cover_path
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import format_hundredths
from manga_app.catalogue.publish_files import media_url
from manga_app.read_models.compact import SeriesFacts


@dataclass(frozen=True)
class ChapterView:
    number: str
    title: str
    slug: str
    published_at: datetime
    page_count: int
    views: int
    url: str
    kind: str = "chapter"  # or 'volume'; `number` is then the volume's key (routes.VOLUME_KEY)
    label: str = ""  # 第12話, 第3巻
    id: int = 0  # the chapter row's (its likes are kept by it: engagement/likes.py)


@dataclass(frozen=True)
class SeriesView(SeriesFacts):
    """A series as its title page and its reader show it."""

    id: int
    artists: tuple[str, ...]
    summary: str
    direction: str
    tags: tuple[str, ...]
    url: str
    # (name, hiragana reading) of each author and artist whose reading differs from the name.
    name_readings: tuple[tuple[str, str], ...] = ()
    # The covers have AVIF copies (the published list says so: title_cache).
    cover_avif: bool = False


@dataclass(frozen=True)
class ChapterContext:
    """A chapter with its series and neighbours, as the reader needs it."""

    series: SeriesView
    chapter: ChapterView
    previous: ChapterView | None
    next: ChapterView | None
    chapters: tuple[ChapterView, ...]


def chapter_view(series_slug: str, chapter: Chapter) -> ChapterView:
    number = format_hundredths(chapter.number_hundredths)
    return ChapterView(
        number=number,
        title=chapter.title,
        slug=chapter.slug,
        published_at=chapter.published_at,
        page_count=chapter.page_count,
        views=chapter.views,
        url=routes.chapter_url(series_slug, number, chapter.slug),
        kind=chapter.kind,
        label=routes.unit_label(number),
        id=chapter.id or 0,
    )


def series_view(*, session: Session, series: Series, media_base_url: str) -> SeriesView:
    genres = repository.genres_by_series(session=session, series_ids=[series.id]).get(series.id, [])
    cover = media_url(media_base_url, cover_path(series.cover_key, 320)) if series.cover_key else ""
    small = media_url(media_base_url, cover_path(series.cover_key, 160)) if series.cover_key else ""
    return SeriesView(
        id=series.id,
        slug=series.slug,
        title=series.title,
        alt_titles=tuple(series.alt_titles),
        authors=tuple(series.authors),
        artists=tuple(series.artists),
        summary=series.summary,
        status=series.status,
        direction=series.direction,
        cover=cover,
        cover_small=small,
        genres=tuple(genres),
        tags=tuple(series.tags or ()),
        views=series.views,
        created_at=series.created_at,
        updated_at=series.updated_at,
        url=routes.manga_url(series.slug),
        name_readings=tuple(
            (reading["text"], reading["hiragana"]) for reading in series.readings or ()
            if reading.get("of") == "name" and reading.get("hiragana") and reading["hiragana"] != reading.get("text")
        ),
    )


def load_title(*, session: Session, slug: str, media_base_url: str) -> tuple[SeriesView, tuple[ChapterView, ...]] | None:
    """A title page's data: the series and its chapters in reading order."""
    series = repository.get_series(session=session, slug=slug)
    if series is None:
        return None
    chapters = tuple(chapter_view(slug, chapter) for chapter in repository.chapters_of(session=session, series_id=series.id))
    if not chapters:
        return None
    return series_view(session=session, series=series, media_base_url=media_base_url), chapters


def load_chapter(*, session: Session, slug: str, number: str, media_base_url: str) -> ChapterContext | None:
    """The reader's data for chapter `number` of `slug`, or None when unknown."""
    title = load_title(session=session, slug=slug, media_base_url=media_base_url)
    return None if title is None else chapter_context(title, number)


def chapter_context(title: tuple[SeriesView, tuple[ChapterView, ...]], number: str) -> ChapterContext | None:
    """Chapter `number` of a loaded title, with its neighbours; None when unknown."""
    series, chapters = title
    unit = next((chapter for chapter in chapters if chapter.number == number), None)
    if unit is None:
        return None
    # Previous and next stay among the same kind: the volume after volume 3 is
    # volume 4, never the first chapter.
    same_kind = [chapter for chapter in chapters if chapter.kind == unit.kind]
    position = same_kind.index(unit)
    return ChapterContext(
        series=series,
        chapter=unit,
        previous=same_kind[position - 1] if position > 0 else None,
        next=same_kind[position + 1] if position + 1 < len(same_kind) else None,
        chapters=chapters,
    )
