"""A unit's files for reader apps: the CBZ download (streamed, see
opds/cbz.py) and OPDS-PSE page streaming (`/pages/{n}?maxWidth=`).

Pages are the media store's files: the published original for the CBZ and
for apps that want full size, else the smallest derivative the site already
made (720 or 1200 px wide) that is at least `maxWidth` wide. Nothing is
resized per request."""

from __future__ import annotations

import asyncio
import logging
import re
from urllib.parse import quote

from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.concurrency import iterate_in_threadpool

from manga_app.core import routes
from manga_app.core.db import shared_engine
from manga_app.catalogue.media import READER_WIDTH, SAVER_WIDTH, original_path, reader_path, saver_path
from manga_app.core.config import get_settings
from manga_app.opds import cbz, comicinfo, queries
from manga_app.opds.entries import image_type
from manga_app.web.opds_http import Asker, OpdsError

logger = logging.getLogger(__name__)

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Units as the feeds write them (routes.unit_segment): `12`, `10.5`, a volume `3-vol`.
_UNIT = re.compile(r"^[0-9]{1,6}(?:\.[0-9]{1,2})?(?:-vol)?$")
_INDEX = re.compile(r"^[0-9]{1,6}$")
MAX_WIDTH_LIMIT = 100_000
# Page images change only with a re-import (which changes the chapter's pages).
PAGE_CACHE = "public, max-age=3600"


def _load(slug: str, number: str) -> queries.UnitPages | None:
    with Session(shared_engine()) as session:
        return queries.unit_pages(session=session, slug=slug, number=number,
                                  media_base_url=get_settings().media_base_url)


async def _unit(request: Request) -> queries.UnitPages:
    slug, number = request.path_params["slug"], request.path_params["number"]
    found = None
    key = routes.parse_unit_segment(number) if _UNIT.match(number) else None
    if SLUG.match(slug) and key is not None:
        found = await asyncio.to_thread(_load, slug, key)
    if found is None:
        raise OpdsError(404, "この話は見つかりませんでした。")
    return found


def _filename(title: str, label: str, fallback: str) -> str:
    """Content-Disposition with an ASCII fallback and the Japanese name (RFC 6266)."""
    name = f"{title} {label}.cbz".replace('"', "").replace("/", "／")
    return f"attachment; filename=\"{fallback}.cbz\"; filename*=UTF-8''{quote(name, safe='')}"


async def download(request: Request, who: Asker) -> Response:
    """The unit as a CBZ: the published pages at full quality and a ComicInfo.xml."""
    found = await _unit(request)
    settings = get_settings()
    store = settings.media_dir
    pages = [cbz.ArchivePage(store / original_path(page.media_key, page.ext), page.ext) for page in found.pages]
    info = comicinfo.comicinfo_xml(found.series, found.unit, pages=len(pages), web=settings.origin + found.unit.url)
    try:
        stream = cbz.cbz_stream(pages, info)
    except cbz.MissingPage as missing:
        logger.error("OPDS download of %s %s: page file missing from the media store: %s",
                     found.series.slug, found.unit.number, missing)
        raise OpdsError(500, "この話の画像を読み込めませんでした。時間をおいてもう一度お試しください。") from None
    headers = {
        "Content-Length": str(len(stream)),
        "Content-Disposition": _filename(found.series.title, found.unit.label,
                                         f"{found.series.slug}-{routes.unit_number(found.unit.number)}"
                                         + ("-vol" if routes.is_volume(found.unit.number) else "")),
        "Cache-Control": "private, max-age=0" if who.keyed else "public, max-age=300",
    }
    if request.method == "HEAD":
        return Response(status_code=200, headers=headers, media_type="application/vnd.comicbook+zip")
    return StreamingResponse(iterate_in_threadpool(iter(stream)), media_type="application/vnd.comicbook+zip",
                             headers=headers)


def max_width(request: Request) -> int | None:
    """`?maxWidth=`: a positive whole number of pixels (huge values mean full size);
    absent, empty or the unfilled `{maxWidth}` placeholder mean full size."""
    raw = request.query_params.get("maxWidth", "").strip()
    if raw in ("", "{maxWidth}"):
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9 or int(raw) < 1:
        raise OpdsError(400, "maxWidth は1以上の整数（ピクセル）で指定してください。")
    return min(int(raw), MAX_WIDTH_LIMIT)


def choose_file(page, width: int | None) -> str:
    """The media store path of the smallest published version at least `width` wide."""
    if width is not None and width < page.width:
        if width <= SAVER_WIDTH:
            return saver_path(page.media_key, page.width, page.height)
        if width <= READER_WIDTH:
            return reader_path(page.media_key, page.width, page.height)
    return original_path(page.media_key, page.ext)


async def page(request: Request, who: Asker) -> Response:
    """OPDS-PSE: page `index` (from 0) of the unit."""
    raw = request.path_params["index"]
    if not _INDEX.match(raw):
        raise OpdsError(400, "ページ番号は0以上の整数で指定してください。")
    width = max_width(request)
    found = await _unit(request)
    index = int(raw)
    if index >= len(found.pages):
        raise OpdsError(404, f"この話のページは0から{len(found.pages) - 1}までです。")
    relative = choose_file(found.pages[index], width)
    path = get_settings().media_dir / relative
    if not path.is_file():
        logger.error("OPDS page %s of %s %s missing from the media store: %s", index, found.series.slug,
                     found.unit.number, path)
        raise OpdsError(500, "このページの画像を読み込めませんでした。")
    return FileResponse(path, media_type=image_type(relative), headers={"Cache-Control": PAGE_CACHE})
