"""What the OPDS catalogue reads from the database: keyword-only functions
taking a session, built on the catalogue's own read models (titles.py), so
a unit's pages, labels and URLs are the ones the site shows."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from manga_app.accounts import progress, repository
from manga_app.read_models import titles
from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import format_hundredths, to_hundredths
from manga_app.opds.entries import Reading

# 続きを読む lists this many series, the most recently read first.
CONTINUE_LIMIT = 50


@dataclass(frozen=True)
class UnitPages:
    series: titles.SeriesView
    unit: titles.ChapterView
    pages: list[Page]


def unit_pages(*, session: Session, slug: str, number: str, media_base_url: str) -> UnitPages | None:
    """A unit (chapter or volume key, as in its URL) with its pages in order; None when unknown."""
    context = titles.load_chapter(session=session, slug=slug, number=number, media_base_url=media_base_url)
    if context is None:
        return None
    pages = session.exec(
        select(Page)
        .join(Chapter, Chapter.id == Page.chapter_id)
        .join(Series, Series.id == Chapter.series_id)
        .where(Series.slug == slug, Chapter.number_hundredths == to_hundredths(number))
        .order_by(Page.index)
    ).all()
    return UnitPages(context.series, context.chapter, list(pages))


def followed(*, session: Session, uid: str) -> list[str]:
    """Slugs the user follows, newest follow first."""
    return repository.followed_slugs(session=session, uid=uid)


def continue_reading(
    *, session: Session, uid: str, media_base_url: str, limit: int = CONTINUE_LIMIT
) -> list[tuple[titles.SeriesView, titles.ChapterView, Reading]]:
    """Where the user stopped in each series they read, most recent first
    (units since removed from the catalogue are left out)."""
    found = []
    for row in progress.history(session=session, uid=uid, limit=limit):
        context = titles.load_chapter(
            session=session, slug=row.series_slug, number=format_hundredths(row.chapter_hundredths),
            media_base_url=media_base_url,
        )
        if context is not None:
            found.append((context.series, context.chapter, Reading(page=row.page, at=row.updated_at)))
    return found
