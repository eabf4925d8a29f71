"""A unit's files for reader apps: the CBZ download (streamed, see
opds/cbz.py) and OPDS-PSE page streaming (`/pages/{n}?maxWidth=`).

Pages are the media store's files: the published original for the CBZ and
for apps that want full size, else the site's 1200 px reader derivative when
`maxWidth` is at most that. Nothing is resized per request. OPDS-PSE allows
JPEG, GIF and PNG and the stream link declares one type, so PSE always
serves JPEG: the reader derivative is one; a PNG, WebP, GIF or AVIF original
asked at full size is re-encoded (a few at a time, off the event loop)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import threading
from urllib.parse import quote

from PIL import Image
from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import FileResponse, Response, StreamingResponse
from starlette.concurrency import iterate_in_threadpool

from manga_app.core import routes
from manga_app.core.db import shared_engine
from manga_app.catalogue.media import original_path, reader_path
from manga_app.catalogue.page_images import READER_WIDTH
from manga_app.catalogue.page_images import displayable
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
# Under a personal key the URL carries the key: no shared cache may keep it.
KEYED_PAGE_CACHE = "private, max-age=3600"
JPEG = "image/jpeg"
CBZ = "application/vnd.comicbook+zip"


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
    """The unit as a CBZ: the published pages at full quality and a ComicInfo.xml.
    The same unit is the same bytes each time, so a download resumes with Range."""
    found = await _unit(request)
    settings = get_settings()
    store = settings.media_dir
    pages = [cbz.ArchivePage(store / original_path(page.media_key, page.ext), page.ext) for page in found.pages]
    info = comicinfo.comicinfo_xml(found.series, found.unit, pages=len(pages), web=settings.origin + found.unit.url)
    try:
        info_file = await asyncio.to_thread(cbz.comicinfo_file, info, settings.data_dir / "cache" / "comicinfo")
        stream = cbz.cbz_stream(pages, info_file)
        tag = await asyncio.to_thread(cbz.etag, pages, info_file)
    except (cbz.MissingPage, FileNotFoundError) as missing:
        logger.error("OPDS download of %s %s: page file missing from the media store: %s",
                     found.series.slug, found.unit.number, missing)
        raise OpdsError(500, "この話の画像を読み込めませんでした。時間をおいてもう一度お試しください。") from None
    size = len(stream)
    headers = {
        "Content-Disposition": _filename(found.series.title, found.unit.label,
                                         f"{found.series.slug}-{routes.unit_number(found.unit.number)}"
                                         + ("-vol" if routes.is_volume(found.unit.number) else "")),
        "Cache-Control": "private, max-age=0" if who.keyed else "public, max-age=300",
        "Accept-Ranges": "bytes",
        "ETag": tag,
    }
    wanted = None
    if request.headers.get("if-range", tag) == tag:
        try:
            wanted = cbz.byte_range(request.headers.get("range"), size)
        except cbz.Unsatisfiable:
            return Response(status_code=416, headers={**headers, "Content-Range": f"bytes */{size}"})
    status, body = 200, None
    if wanted is None:
        headers["Content-Length"] = str(size)
    else:
        first, last = wanted
        status = 206
        headers["Content-Range"] = f"bytes {first}-{last}/{size}"
        headers["Content-Length"] = str(last - first + 1)
        body = cbz.sliced(stream, first, last)
    if request.method == "HEAD":
        return Response(status_code=status, headers=headers, media_type=CBZ)
    return StreamingResponse(iterate_in_threadpool(iter(stream) if body is None else body), status_code=status,
                             media_type=CBZ, headers=headers)


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
    """The media store path of the smallest published JPEG-or-original at least `width` wide
    (the data-saver derivative is WebP, which PSE does not allow)."""
    if width is not None and width < page.width and width <= READER_WIDTH:
        return reader_path(page.media_key, page.width, page.height)
    return original_path(page.media_key, page.ext)


_ENCODING = threading.BoundedSemaphore(2)


def as_jpeg(path) -> bytes:
    """A page file as JPEG (PSE's type), as the reader shows it: transparency on white."""
    with _ENCODING, Image.open(path) as image:
        out = io.BytesIO()
        displayable(image).save(out, format="JPEG", quality=90)
        return out.getvalue()


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
    headers = {"Cache-Control": KEYED_PAGE_CACHE if who.keyed else PAGE_CACHE}
    if image_type(relative) == JPEG:
        return FileResponse(path, media_type=JPEG, headers=headers)
    try:
        body = await asyncio.to_thread(as_jpeg, path)
    except (OSError, Image.DecompressionBombError) as exc:
        logger.error("OPDS page %s of %s %s cannot be re-encoded: %s", index, found.series.slug, found.unit.number, exc)
        raise OpdsError(500, "このページの画像を読み込めませんでした。") from None
    return Response(body if request.method != "HEAD" else b"", media_type=JPEG, headers=headers)
