"""The units the Atom feeds list: keyword-only queries taking a session."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from manga_app.accounts.models import Follow
from manga_app.catalogue.models import Chapter, Series
from manga_app.read_models.titles import ChapterView, chapter_view

# Entries in a feed: feed readers keep what they saw, so the newest suffice.
SERIES_ENTRIES = 30
LIBRARY_ENTRIES = 50


@dataclass(frozen=True)
class FeedUnit:
    series_slug: str
    series_title: str
    authors: tuple[str, ...]
    unit: ChapterView


def _units(query, limit: int) -> list[FeedUnit]:
    return query.order_by(col(Chapter.published_at).desc(), col(Chapter.id).desc()).limit(limit)


def _rows(session: Session, query, limit: int) -> list[FeedUnit]:
    return [FeedUnit(series.slug, series.title, tuple(dict.fromkeys((*series.authors, *series.artists))),
                     chapter_view(series.slug, chapter))
            for series, chapter in session.exec(_units(query, limit)).all()]


def series_units(*, session: Session, slug: str, limit: int = SERIES_ENTRIES) -> list[FeedUnit]:
    """The series' newest units, newest first."""
    query = select(Series, Chapter).join(Chapter, Chapter.series_id == Series.id).where(Series.slug == slug)
    return _rows(session, query, limit)


def library_units(*, session: Session, uid: str, limit: int = LIBRARY_ENTRIES) -> list[FeedUnit]:
    """The newest units of every series the user follows, newest first."""
    query = (
        select(Series, Chapter)
        .join(Follow, (Follow.series_slug == Series.slug) & (Follow.uid == uid))
        .join(Chapter, Chapter.series_id == Series.id)
    )
    return _rows(session, query, limit)
