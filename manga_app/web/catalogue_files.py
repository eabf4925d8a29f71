"""The published catalogue and the media store over HTTP.

JSON lists and manifests revalidate quickly (an import republishes them);
media names are content hashes, so they are cached for a year as immutable.
Both answer conditional requests (ETag) and media answers range requests."""

from __future__ import annotations

import errno
import re
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from manga_app.core import routes
from manga_app.core.config import get_settings
from manga_app.web.encoding import accepts_gzip

_LIST_PAGE = re.compile(r"^[1-9][0-9]{0,8}$")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
JSON_CACHE = "public, max-age=60, stale-while-revalidate=600"
MEDIA_CACHE = "public, max-age=31536000, immutable"


def not_found_json() -> JSONResponse:
    return JSONResponse({"error": "not found"}, status_code=404, headers={"Cache-Control": "no-cache"})


def _published_file(request: Request, relative: str) -> Response:
    """A published JSON file, from its precompressed `.gz` twin when the client takes gzip.

    The publisher writes the twins (list pages, genres.json): compressing a
    600 KB page per request would cost the server more than the rest of the
    backend's loading. Each variant has its own ETag, both say `Vary:
    Accept-Encoding`, and the gzip layer leaves a response that has a
    Content-Encoding alone. A file without a twin (a manifest) goes out
    plain, to be gzipped on the fly: its ETag is weak, since the bytes sent
    then depend on the encoding. Bytes, not a file stream: the gzip layer
    cannot compress a response sent straight from disk.
    """
    path = get_settings().published_dir / relative
    twin = path.with_name(path.name + ".gz")
    accept = request.headers.get("accept-encoding", "")
    try:
        stat = path.stat()
        has_twin = twin.is_file()
        use_twin = has_twin and accepts_gzip(accept)
        if use_twin:
            path, stat = twin, twin.stat()
        content = path.read_bytes() if request.method != "HEAD" else b""
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return not_found_json()
    except OSError as error:  # a name no published file can have ('File name too long')
        if error.errno == errno.ENAMETOOLONG:
            return not_found_json()
        raise
    tag = f"{stat.st_mtime_ns:x}-{stat.st_size:x}"
    if use_twin:
        etag = f'"{tag}-gz"'
    elif has_twin and "gzip" not in accept.lower():
        etag = f'"{tag}"'
    else:  # the gzip layer compresses whatever mentions gzip (even "gzip;q=0")
        etag = f'W/"{tag}"'
    headers = {"Cache-Control": JSON_CACHE, "ETag": etag, "Vary": "Accept-Encoding"}
    if use_twin:
        headers["Content-Encoding"] = "gzip"
    if _etag_matches(request.headers.get("if-none-match", ""), etag):
        return Response(status_code=304, headers=headers)
    if request.method == "HEAD":
        headers["Content-Length"] = str(stat.st_size)
    return Response(content, media_type="application/json", headers=headers)


def _etag_matches(wanted: str, etag: str) -> bool:
    """If-None-Match compares weakly: W/"x" and "x" match."""
    strong = etag.removeprefix("W/")
    tags = (tag.strip() for tag in wanted.split(","))
    return any(tag == "*" or tag.removeprefix("W/") == strong for tag in tags if tag)


async def genres_json(request: Request) -> Response:
    return _published_file(request, "genres.json")


async def mangas_json(request: Request) -> Response:
    page = request.path_params["page"]
    if not _LIST_PAGE.match(page):
        return not_found_json()
    return _published_file(request, f"mangas_{page}.json")


async def manifest_json(request: Request) -> Response:
    """`/manifests/{slug}/{n}.json` (chapter n) or `{n}-vol.json` (volume n),
    written as routes.manifest_path writes it; any other name is a 404."""
    slug, segment = request.path_params["slug"], request.path_params["number"]
    key = routes.parse_unit_segment(segment) if _SLUG.match(slug) and len(segment) <= 16 else None
    if key is None or routes.unit_segment(key) != segment:
        return not_found_json()
    return _published_file(request, routes.manifest_path(slug, key).lstrip("/"))


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
