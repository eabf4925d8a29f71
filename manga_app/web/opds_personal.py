"""The personal feeds, reached only under a user's key (`/opds/k/{key}`):
フォロー中 (followed series) and 続きを読む (where the user stopped in each
series, with PSE's lastRead). Private to the user: never cached by shared
caches, validated by their own bytes."""

from __future__ import annotations

import asyncio

from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import Response

from manga_app.core.db import shared_engine
from manga_app.core.config import get_settings
from manga_app.opds import entries, queries
from manga_app.opds.feeds import ACQUISITION, NAVIGATION
from manga_app.web.opds_http import Asker, feed_of, page_number, paged, privately_validated, render, require_user

SERIES_PER_PAGE = 50


def _personal(uid: str, what: str):
    settings = get_settings()
    with Session(shared_engine()) as session:
        if what == "following":
            return queries.followed(session=session, uid=uid)
        return queries.continue_reading(session=session, uid=uid, media_base_url=settings.media_base_url)


async def following(request: Request, who: Asker) -> Response:
    uid = require_user(who)
    slugs = await asyncio.to_thread(_personal, uid, "following")
    items = [item for slug in slugs if (item := who.snapshot.by_slug.get(slug)) is not None]
    number = page_number(request)
    page = paged(len(items), SERIES_PER_PAGE, number, who.urls.following)
    shown = items[(number - 1) * SERIES_PER_PAGE : number * SERIES_PER_PAGE]
    found = [entries.series_entry(item, who.urls) for item in shown]
    body, media_type = render(feed_of(who, request, "フォロー中", NAVIGATION, found, page=page))
    return privately_validated(request, body, media_type)


async def continue_reading(request: Request, who: Asker) -> Response:
    uid = require_user(who)
    rows = await asyncio.to_thread(_personal, uid, "continue")
    found = [entries.unit_entry(title, unit, who.urls, pages=unit.page_count, reading=reading)
             for title, unit, reading in rows]
    body, media_type = render(feed_of(who, request, "続きを読む", ACQUISITION, found))
    return privately_validated(request, body, media_type)
