"""A title's series and chapter rows, held a while in each process: read by
its page's state, its head, and every reader page of it (state and head)."""

from __future__ import annotations

import contextlib
import dataclasses
import time

from sqlmodel import Session

from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine
from manga_app.core.recent import MISSING, Recent
from manga_app.read_models import titles
from manga_app.read_models.held import held_catalogue

# A title's series and chapter rows, read by its page's state, its head, and
# every reader page of it (state and head): one query per title per
# CATALOGUE_REFRESH_SECONDS and catalogue version in each process, not two or
# three per visit; as fresh as the held catalogue (views counted meanwhile
# show that much later). An unknown title is not kept: it may be imported now.
_titles: Recent[tuple[titles.SeriesView, tuple[titles.ChapterView, ...]]] | None = None


def _load_title(session: Session | None, slug: str) -> tuple[titles.SeriesView, tuple[titles.ChapterView, ...]] | None:
    global _titles
    settings = get_settings()
    if _titles is None:
        _titles = Recent(size=4096, seconds=settings.catalogue_refresh_seconds)
    key, now = (str(shared_engine().url), held_catalogue().current.version, slug), time.monotonic()
    found = _titles.get(key, now)
    if found is MISSING:
        with contextlib.nullcontext(session) if session is not None else Session(shared_engine()) as used:
            found = titles.load_title(session=used, slug=slug, media_base_url=settings.media_base_url)
        if found is not None:
            found = (_with_avif_covers(found[0]), found[1])
            _titles.put(key, found, now)
    return found


def _with_avif_covers(series: titles.SeriesView) -> titles.SeriesView:
    """The series' covers have AVIF copies when the published list, which
    the held catalogue reads, names them (catalogue/publish_lists.py)."""
    mangas = held_catalogue().current.mangas
    index = mangas.find(series.slug)
    return dataclasses.replace(series, cover_avif=index >= 0 and bool(mangas.avif[index]))


def load_title(slug: str) -> tuple[titles.SeriesView, tuple[titles.ChapterView, ...]] | None:
    return _load_title(None, slug)


def _chapter(session: Session | None, params: dict[str, str]) -> titles.ChapterContext | None:
    title = _load_title(session, params["slug"])
    context = None if title is None else titles.chapter_context(title, params["number"])
    if context is None or params.get("chapter_slug") not in ("", context.chapter.slug):
        return None
    return context


def load_chapter(params: dict[str, str]) -> titles.ChapterContext | None:
    """The chapter a reader path names; a chapter slug, when given, must be the chapter's."""
    return _chapter(None, params)
