"""Atom feeds for feed readers (manga_app/feeds): `/feeds/series/{slug}.atom`,
a series' newest units, and `/feeds/k/{key}.atom`, the newest units of the
library of the key's user (a key made, shown once and revoked like the OPDS
key: accounts/opds_keys.py, table FeedKey).

A series feed depends only on the published catalogue: its ETag comes from
the held catalogue's version, so a 304 costs no query, and shared caches may
keep it a few minutes. A personal feed is private, validated by its own
bytes. Errors are plain Japanese text: 404 for an unknown series, 401 for an
unknown, malformed or revoked key."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime
from email.utils import format_datetime

from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from manga_app.accounts import opds_keys
from manga_app.accounts.models import FeedKey
from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine
from manga_app.feeds import atom, queries
from manga_app.read_models.held import held_catalogue
from manga_app.web.opds_http import not_modified, privately_validated
from manga_app.web.opds_files import SLUG

SERIES_CACHE = "public, max-age=300"
NO_SUCH_SERIES = "この作品は見つかりませんでした。URLをご確認ください。"
_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
BAD_KEY = "このフィードのキーは無効です。ライブラリで新しいキーを作成してください。"


def _error(status: int, message: str) -> Response:
    headers = {"Cache-Control": "no-store"}
    if status == 401:
        headers["WWW-Authenticate"] = 'Feed-Key realm="feeds"'
    return PlainTextResponse(message + "\n", status_code=status, headers=headers)


def _absolute(url: str) -> str:
    return url if url.startswith(("http://", "https://")) else get_settings().origin + url


def _entry(found: queries.FeedUnit, *, with_series: bool) -> atom.Entry:
    unit = found.unit
    label = f"{unit.label} {unit.title}".strip() if unit.title and unit.title != unit.label else unit.label
    pages = f"・全{unit.page_count}ページ" if unit.page_count else ""
    return atom.Entry(
        # The unit's reader URL without its chapter slug: the same entry if the slug changes.
        id=_absolute(routes.chapter_url(found.series_slug, unit.number)),
        title=f"{found.series_title} {label}" if with_series else label,
        url=_absolute(unit.url),
        published=unit.published_at,
        summary=f"{found.series_title} {unit.label}{pages}",
        authors=found.authors,
    )


def _series_feed(slug: str, item) -> bytes:
    with Session(shared_engine()) as session:
        units = queries.series_units(session=session, slug=slug)
    settings = get_settings()
    return atom.render(atom.Feed(
        id=_absolute(routes.manga_url(slug)), title=f"{item.title}の新着 | {settings.site_name}",
        self_url=_absolute(routes.series_feed_url(slug)), page_url=_absolute(routes.manga_url(slug)),
        updated=units[0].unit.published_at if units else item.updated_at, author=settings.site_name,
        entries=[_entry(found, with_series=False) for found in units], subtitle=f"{item.title}の新しい話と巻",
        icon=_absolute("/favicon.ico"), logo=_absolute(item.cover) if item.cover else "",
    ))


async def series_feed(request: Request) -> Response:
    slug = request.path_params["slug"]
    snapshot = await held_catalogue().snapshot()
    item = snapshot.by_slug.get(slug) if SLUG.match(slug) else None
    if item is None:
        return _error(404, NO_SUCH_SERIES)
    tag = hashlib.sha256(f"{snapshot.version or 'unpublished'}\n{slug}".encode()).hexdigest()[:32]
    headers = {"ETag": f'W/"feed-{tag}"', "Last-Modified": format_datetime(item.updated_at, usegmt=True),
               "Cache-Control": SERIES_CACHE}
    if not_modified(request, headers["ETag"], item.updated_at):
        return Response(status_code=304, headers=headers)
    body = await asyncio.to_thread(_series_feed, slug, item)
    return Response(body if request.method != "HEAD" else b"", media_type=atom.MEDIA_TYPE, headers=headers)


def _personal_feed(key: str) -> bytes | None:
    """The feed of the key's user; None for a key that names nobody."""
    settings = get_settings()
    with Session(shared_engine()) as session:
        uid = opds_keys.uid_for_key(session=session, key=key, table=FeedKey)
        if uid is None:
            return None
        units = queries.library_units(session=session, uid=uid)
    path = routes.personal_feed_url(key)
    return atom.render(atom.Feed(
        id=_absolute(path), title=f"フォロー中の作品の新着 | {settings.site_name}", self_url=_absolute(path),
        page_url=_absolute(routes.LIBRARY), updated=units[0].unit.published_at if units else _EPOCH,
        author=settings.site_name, entries=[_entry(found, with_series=True) for found in units],
        subtitle="ライブラリでフォローしている作品の新しい話と巻", icon=_absolute("/favicon.ico"),
    ))


async def personal_feed(request: Request) -> Response:
    body = await asyncio.to_thread(_personal_feed, request.path_params["key"])
    if body is None:
        return _error(401, BAD_KEY)
    return privately_validated(request, body, atom.MEDIA_TYPE)


def feed_routes() -> list[Route]:
    return [
        Route("/feeds/series/{slug}.atom", series_feed, methods=["GET", "HEAD"]),
        Route("/feeds/k/{key}.atom", personal_feed, methods=["GET", "HEAD"]),
    ]
