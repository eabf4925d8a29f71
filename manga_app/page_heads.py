"""The head of whatever page lives at a path, looked up in the catalogue
(None: no page lives there, a 404). Used by HeadState."""

from __future__ import annotations

import asyncio

from sqlmodel import Session

from manga_app import heads
from manga_app.catalogue import views
from manga_app.catalogue.db import shared_engine
from manga_app.catalogue.held import held_catalogue
from manga_app.config import get_settings
from manga_app.routes import PageKind, RouteMatch
from manga_app.seo import PageHead

STATIC_KINDS = frozenset({PageKind.HOME, PageKind.GENRES, PageKind.SEARCH, PageKind.LIBRARY, PageKind.HISTORY})


def load_title(slug: str) -> tuple[views.SeriesView, tuple[views.ChapterView, ...]] | None:
    with Session(shared_engine()) as session:
        return views.load_title(session=session, slug=slug, media_base_url=get_settings().media_base_url)


def _chapter(session: Session, params: dict[str, str]) -> views.ChapterContext | None:
    context = views.load_chapter(
        session=session, slug=params["slug"], number=params["number"], media_base_url=get_settings().media_base_url
    )
    if context is None or params.get("chapter_slug") not in ("", context.chapter.slug):
        return None
    return context


def load_chapter(params: dict[str, str]) -> views.ChapterContext | None:
    """The chapter a reader path names; a chapter slug, when given, must be the chapter's."""
    with Session(shared_engine()) as session:
        return _chapter(session, params)


async def resolve_head(found: RouteMatch | None, path: str) -> PageHead | None:
    settings = get_settings()
    if found is None:
        return None
    if found.kind in STATIC_KINDS:
        return heads.static_head(found.kind, site_names=settings.names, origin=settings.origin)
    if found.kind is PageKind.GENRE:
        snapshot = await held_catalogue().snapshot()
        genre = next((genre for genre in snapshot.genres if genre.name == found.params["name"]), None)
        return None if genre is None else heads.genre_head(genre.name, genre.total, site_name=settings.site_name, origin=settings.origin)
    if found.kind is PageKind.MANGA:
        title = await asyncio.to_thread(load_title, found.params["slug"])
        return None if title is None else heads.title_head(*title, site_name=settings.site_name, origin=settings.origin)
    if found.kind is PageKind.READER:
        context = await asyncio.to_thread(load_chapter, found.params)
        return None if context is None else heads.reader_head(context, path, site_name=settings.site_name, origin=settings.origin)
    return None
