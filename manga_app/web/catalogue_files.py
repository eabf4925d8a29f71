"""The published catalogue and the media store over HTTP.

JSON lists and manifests revalidate quickly (an import republishes them);
media names are content hashes, so they are cached for a year as immutable.
Both answer conditional requests (ETag) and media answers range requests."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from manga_app.config import get_settings

_LIST_PAGE = re.compile(r"^[1-9][0-9]{0,8}$")
_MANIFEST_NUMBER = re.compile(r"^[0-9]{1,6}(?:\.[0-9]{1,2})?$")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
JSON_CACHE = "public, max-age=60, stale-while-revalidate=600"
MEDIA_CACHE = "public, max-age=31536000, immutable"


def not_found_json() -> JSONResponse:
    return JSONResponse({"error": "not found"}, status_code=404, headers={"Cache-Control": "no-cache"})


def _published_file(request: Request, relative: str) -> Response:
    """A published JSON file as bytes (not a file stream): the gzip layer
    cannot compress a response the server sends straight from disk."""
    path = get_settings().published_dir / relative
    try:
        stat = path.stat()
        content = path.read_bytes() if request.method != "HEAD" else b""
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return not_found_json()
    etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
    headers = {"Cache-Control": JSON_CACHE, "ETag": etag}
    if _etag_matches(request.headers.get("if-none-match", ""), etag):
        return Response(status_code=304, headers=headers)
    if request.method == "HEAD":
        headers["Content-Length"] = str(stat.st_size)
    return Response(content, media_type="application/json", headers=headers)


def _etag_matches(wanted: str, etag: str) -> bool:
    return any(tag.strip() in (etag, f"W/{etag}", "*") for tag in wanted.split(",") if tag.strip())


async def genres_json(request: Request) -> Response:
    return _published_file(request, "genres.json")


async def mangas_json(request: Request) -> Response:
    page = request.path_params["page"]
    if not _LIST_PAGE.match(page):
        return not_found_json()
    return _published_file(request, f"mangas_{page}.json")


async def manifest_json(request: Request) -> Response:
    slug, number = request.path_params["slug"], request.path_params["number"]
    if not _SLUG.match(slug) or not _MANIFEST_NUMBER.match(number):
        return not_found_json()
    return _published_file(request, f"manifests/{slug}/{number}.json")


class MediaFiles(StaticFiles):
    """Content-addressed page images and covers; never a directory listing."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, check_dir=False)

    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            response = await super().get_response(path, scope)
        except HTTPException as error:
            return Response(status_code=error.status_code, headers={"Cache-Control": "no-cache"})
        if response.status_code in (200, 206, 304):
            response.headers["Cache-Control"] = MEDIA_CACHE
        return response


def media_app() -> MediaFiles:
    directory = get_settings().media_dir
    directory.mkdir(parents=True, exist_ok=True)
    return MediaFiles(directory)
