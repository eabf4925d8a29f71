"""Database writes of the importer: find-or-create a series, merge metadata, save a chapter.

Kept apart from repository.py (reads shared with the web layer) and from
importer.py (file handling), so each stays small. Nothing here commits: the
importer owns the one-transaction-per-chapter boundary.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.locks import locked
from manga_app.catalogue.media import StoredImage
from manga_app.catalogue.models import Chapter, Genre, Page, Series, SeriesGenre
from manga_app.catalogue.naming import slugify, title_key
from manga_app.catalogue.readings import readings_for
from manga_app.catalogue.series_readings import refresh_search as _refresh_search
from manga_app.catalogue.spreads import spread_offset
from manga_app.core.routes import VOLUME_SLUG

__all__ = [
    "ChapterRecord",
    "DuplicateChapter",
    "SeriesFacts",
    "add_genres",
    "existing_series",
    "find_or_create_series",
    "merge_series_facts",
    "refresh_updated_at",
    "save_chapter",
    "unit_slug",
]


@dataclass(frozen=True)
class SeriesFacts:
    """What one chapter's metadata says about its series (empty means "no opinion")."""

    aliases: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    artists: tuple[str, ...] = ()
    genres: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    summary: str | None = None
    status: str | None = None
    direction: str | None = None
    language: str | None = None
    # (text, hiragana) readings the file gives for a title, alias or name.
    readings: tuple[tuple[str, str], ...] = ()




def find_or_create_series(*, session: Session, title: str) -> Series:
    """The series with this normalised title, else the one with it as an alias
    (a series merged into another: merge-series), else a new one with a
    unique ASCII slug."""
    key = title_key(title)
    series = existing_series(session=session, title=title)
    if series is None:
        series = Series(title=title.strip(), title_key=key, slug=_unique_slug(session, title))
        _refresh_search(series)
        session.add(series)
        session.flush()
    return series


def existing_series(*, session: Session, title: str) -> Series | None:
    """The series a chapter titled `title` joins: by its normalised title, else by an alias."""
    key = title_key(title)
    series = session.exec(select(Series).where(Series.title_key == key)).first()
    return series or _by_alias(session, title, key)


def _by_alias(session: Session, title: str, key: str) -> Series | None:
    # search_text holds every alias NFKC'd and lower-cased: a cheap filter
    # before the exact comparison, done only when a series is about to be created.
    needle = unicodedata.normalize("NFKC", title.strip()).lower()
    query = select(Series).where(Series.search_text.contains(needle, autoescape=True)).order_by(Series.id)
    for series in session.exec(query):
        if any(title_key(alias) == key for alias in series.alt_titles):
            return series
    return None


def _unique_slug(session: Session, title: str) -> str:
    base = slugify(readings_for(title).romaji) or "series"
    taken = set(session.exec(select(Series.slug).where(Series.slug.like(f"{base}%"))))
    if base not in taken:
        return base
    suffix = 2
    while f"{base}-{suffix}" in taken:
        suffix += 1
    return f"{base}-{suffix}"


def merge_series_facts(*, session: Session, series: Series, facts: SeriesFacts) -> None:
    """Add what is new; never wipe a value because one chapter lacks it, and
    never touch a field the operator locked (catalogue.locks)."""
    held = locked(session, series.id)
    own_key = series.title_key
    aliases = {title_key(a): a for a in series.alt_titles}
    for alias in facts.aliases:
        if alias.strip() and title_key(alias) != own_key:
            aliases.setdefault(title_key(alias), alias.strip())
    changes = {
        "alt_titles": list(aliases.values()),
        "authors": _union(series.authors, facts.authors),
        "artists": _union(series.artists, facts.artists),
        "tags": _union(series.tags, facts.tags),
    }
    for name in ("summary", "status", "direction", "language"):
        value = getattr(facts, name)
        if value:
            changes[name] = value
    for name, value in changes.items():
        if name not in held and getattr(series, name) != value:  # unchanged values cost no UPDATE
            setattr(series, name, value)
    _refresh_search(series, () if "readings" in held else facts.readings)
    if "genres" not in held:
        add_genres(session, series, facts.genres)


def _union(existing: Iterable[str], new: Iterable[str]) -> list[str]:
    return list(dict.fromkeys([*existing, *(n.strip() for n in new if n.strip())]))


def add_genres(session: Session, series: Series, names: Iterable[str]) -> None:
    """Link the series to these genres (created when new): a few statements, whatever the count."""
    wanted = list(dict.fromkeys(" ".join(n.split()) for n in names if n.strip()))
    if not wanted:
        return
    ids = dict(session.exec(select(Genre.name, Genre.id).where(Genre.name.in_(wanted))).all())
    missing = [name for name in wanted if name not in ids]
    if missing:
        created = [Genre(name=name) for name in missing]
        session.add_all(created)
        session.flush()
        ids.update((genre.name, genre.id) for genre in created)
    linked = set(
        session.exec(select(SeriesGenre.genre_id).where(SeriesGenre.series_id == series.id))
    )
    new_links = [
        {"series_id": series.id, "genre_id": ids[name]}
        for name in wanted
        if ids[name] not in linked
    ]
    if new_links:
        session.execute(sa.insert(SeriesGenre), new_links)


@dataclass(frozen=True)
class ChapterRecord:
    """A chapter as an import found it (see save_chapter for how it meets the existing row)."""

    number_hundredths: int
    title: str
    slug: str
    # From the chapter's metadata (ComicInfo Year/Month/Day), None when it has none.
    metadata_date: datetime | None
    # When a new chapter came out (metadata_date refined by the file's mtime, or the mtime).
    published_at: datetime
    source_path: str
    source_size: int
    source_mtime_ns: int
    fingerprint: str
    kind: str = "chapter"  # or 'volume' (number_hundredths is then a volume's key)


class DuplicateChapter(Exception):
    """Another file, still present, already provides this chapter number."""

    def __init__(self, other_source: str) -> None:
        super().__init__(other_source)
        self.other_source = other_source


def save_chapter(
    *,
    session: Session,
    series: Series,
    record: ChapterRecord,
    pages: list[StoredImage],
    source_exists: Callable[[str], bool],
) -> list[str]:
    """Insert the chapter or update it in place; returns the media keys it no longer uses.

    The chapter with this number keeps its id, views and creation time; its
    pages are replaced. When it came from another file that still exists
    (`source_exists`), the two files claim one chapter number: DuplicateChapter,
    nothing changed. When that file is gone, this one replaces it (it moved).
    A chapter imported earlier from this same file under another number or
    series is the one updated (its number changed); any further ones are removed.

    Its publication time moves only when the metadata gives another day: an
    import without a date, or with the same day, keeps the time it had.
    """
    same_number = session.exec(
        select(Chapter).where(
            Chapter.series_id == series.id,
            Chapter.number_hundredths == record.number_hundredths,
        )
    ).first()
    if (
        same_number is not None
        and same_number.source_path
        and same_number.source_path != record.source_path
        and source_exists(same_number.source_path)
    ):
        raise DuplicateChapter(same_number.source_path)
    from_file = [
        chapter
        for chapter in session.exec(
            select(Chapter).where(Chapter.source_path == record.source_path)
        )
        if same_number is None or chapter.id != same_number.id
    ]
    target = same_number or (from_file.pop(0) if from_file else None)
    stale_ids = [c.id for c in from_file] + ([target.id] if target is not None else [])
    old_keys = list(session.exec(select(Page.media_key).where(Page.chapter_id.in_(stale_ids))))
    if stale_ids:
        session.execute(sa.delete(Page).where(Page.chapter_id.in_(stale_ids)))
    if from_file:
        session.execute(sa.delete(Chapter).where(Chapter.id.in_([c.id for c in from_file])))
    if target is None:
        target = Chapter(series_id=series.id, published_at=record.published_at)
        session.add(target)
    else:
        target.published_at = _publication_after_reimport(target.published_at, record)
    target.series_id = series.id
    target.number_hundredths = record.number_hundredths
    target.kind = record.kind
    if target.id is not None and "title" in locked(session, series.id, target.id):
        target.slug = unit_slug(record.kind, target.slug)  # the operator's title and its slug stay
    else:
        target.title, target.slug = record.title, unit_slug(record.kind, record.slug)
    target.source_path, target.fingerprint = record.source_path, record.fingerprint
    target.source_size, target.source_mtime_ns = record.source_size, record.source_mtime_ns
    target.page_count = len(pages)
    target.spread_offset = spread_offset((p.width, p.height) for p in pages)
    session.flush()
    if pages:  # one executemany, without building an ORM object per page
        session.execute(
            sa.insert(Page),
            [
                {
                    "chapter_id": target.id,
                    "index": i,
                    "media_key": p.key,
                    "ext": p.ext,
                    "width": p.width,
                    "height": p.height,
                    "bytes": p.bytes,
                }
                for i, p in enumerate(pages)
            ],
        )
    return old_keys


def unit_slug(kind: str, slug: str) -> str:
    """A volume's chapter slug is `vol` (its URL is `/{slug}-ch-{n}-vol`, see
    routes.VOLUME_KEY); a chapter never gets that slug, or its URL would name a volume."""
    if kind == "volume":
        return VOLUME_SLUG
    return "" if slug == VOLUME_SLUG else slug


def _publication_after_reimport(current: datetime, record: ChapterRecord) -> datetime:
    if record.metadata_date is None:
        return current
    if current.astimezone(UTC).date() == record.metadata_date.astimezone(UTC).date():
        return current
    return record.published_at


def refresh_updated_at(*, session: Session, series: Series) -> datetime:
    """A series was updated when its newest chapter was published."""
    latest = session.exec(
        select(sa.func.max(Chapter.published_at)).where(Chapter.series_id == series.id)
    ).one()
    if latest is not None:
        series.updated_at = latest
    return series.updated_at
