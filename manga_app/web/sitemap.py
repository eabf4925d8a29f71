"""`/sitemap.xml`: the home, 五十音, genre, author, tag, title and chapter pages with their
last-modified dates. Past MAX_URLS addresses it becomes a sitemap index
whose parts are `/sitemap.xml?part=N` (one route, any catalogue size);
each part reads only its own slice of the database."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import UTC, datetime
from xml.sax.saxutils import escape

import sqlalchemy as sa
from sqlmodel import Session, select
from starlette.requests import Request
from starlette.responses import Response

from manga_app.core import gojuon, pages, routes
from manga_app.catalogue import repository
from manga_app.core.db import shared_engine
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import format_hundredths
from manga_app.core.config import get_settings

MAX_URLS = 10_000  # per file; the protocol allows 50,000
_CACHE = "public, max-age=3600"
_XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
_NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
# The fixed pages, then every row of the 五十音 index.
STATIC_PATHS = pages.sitemap_paths() + tuple(routes.kana_row_url(row) for row in gojuon.SITE_ROWS)
Entry = tuple[str, datetime | None]  # (path, last modified)


def w3c_date(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def urlset_xml(origin: str, entries: Iterable[Entry]) -> str:
    rows = []
    for path, modified in entries:
        lastmod = f"<lastmod>{w3c_date(modified)}</lastmod>" if modified else ""
        rows.append(f"<url><loc>{escape(origin + path)}</loc>{lastmod}</url>")
    return f"{_XML_HEAD}<urlset {_NS}>\n" + "\n".join(rows) + "\n</urlset>\n"


def index_xml(origin: str, parts: int, modified: datetime | None) -> str:
    lastmod = f"<lastmod>{w3c_date(modified)}</lastmod>" if modified else ""
    rows = [f"<sitemap><loc>{escape(f'{origin}/sitemap.xml?part={part}')}</loc>{lastmod}</sitemap>" for part in range(1, parts + 1)]
    return f"{_XML_HEAD}<sitemapindex {_NS}>\n" + "\n".join(rows) + "\n</sitemapindex>\n"


def slices(counts: list[tuple[str, int]], start: int, stop: int) -> list[tuple[str, int, int]]:
    """Which rows of which source fill addresses [start, stop) of the
    concatenated sources: (source, offset, limit) for each one touched."""
    found, position = [], 0
    for source, count in counts:
        low, high = max(start, position), min(stop, position + count)
        if low < high:
            found.append((source, low - position, high - low))
        position += count
    return found


def _counts(session: Session) -> list[tuple[str, int]]:
    chapters = session.exec(select(sa.func.count()).select_from(Chapter)).one()
    people, tags = repository.people_and_tags(session=session)
    return [
        ("static", len(STATIC_PATHS)),
        ("genres", len(repository.genre_totals(session=session))),
        ("authors", len(people)),
        ("tags", len(tags)),
        ("series", repository.count_series(session=session)),
        ("chapters", chapters),
    ]


def _rows(session: Session, source: str, offset: int, limit: int) -> list[Entry]:
    if source == "static":
        return [(path, None) for path in STATIC_PATHS[offset : offset + limit]]
    if source == "genres":
        names = sorted(name for name, _ in repository.genre_totals(session=session))
        return [(routes.genre_url(name), None) for name in names[offset : offset + limit]]
    if source in ("authors", "tags"):
        people, tags = repository.people_and_tags(session=session)
        names, url = (people, routes.author_url) if source == "authors" else (tags, routes.tag_url)
        return [(url(name), None) for name in names[offset : offset + limit]]
    if source == "series":
        has_chapters = sa.exists().where(Chapter.series_id == Series.id)
        query = select(Series.slug, Series.updated_at).where(has_chapters).order_by(Series.id)
        return [(routes.manga_url(slug), updated) for slug, updated in session.exec(query.offset(offset).limit(limit))]
    query = (
        select(Series.slug, Chapter.number_hundredths, Chapter.slug, Chapter.published_at)
        .join(Series, Chapter.series_id == Series.id)
        .order_by(Chapter.id)
    )
    return [
        (routes.chapter_url(slug, format_hundredths(number), chapter_slug), published)
        for slug, number, chapter_slug, published in session.exec(query.offset(offset).limit(limit))
    ]


def render(origin: str, part: int | None) -> str | None:
    """The sitemap (part None) or one part of it; None for a part that does not exist."""
    with Session(shared_engine()) as session:
        counts = _counts(session)
        total = sum(count for _, count in counts)
        parts = max(1, -(-total // MAX_URLS))
        if part is None and parts > 1:
            latest = session.exec(select(sa.func.max(Series.updated_at))).one()
            return index_xml(origin, parts, latest)
        part = part or 1
        if not 1 <= part <= parts:
            return None
        entries = [
            entry
            for source, offset, limit in slices(counts, (part - 1) * MAX_URLS, part * MAX_URLS)
            for entry in _rows(session, source, offset, limit)
        ]
    return urlset_xml(origin, entries)


async def sitemap(request: Request) -> Response:
    raw = request.query_params.get("part")
    part = int(raw) if raw and raw.isascii() and raw.isdigit() and len(raw) < 7 else None
    if raw is not None and part is None:
        return Response("not found", status_code=404, media_type="text/plain")
    body = await asyncio.to_thread(render, get_settings().origin, part)
    if body is None:
        return Response("not found", status_code=404, media_type="text/plain")
    content = body.encode() if request.method != "HEAD" else b""
    return Response(content, media_type="application/xml", headers={"Cache-Control": _CACHE})
