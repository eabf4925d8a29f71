"""Where the backend reads the published catalogue (lists and manifests):
the published folder itself when the catalogue is local (CATALOGUE_URL
unset), over HTTP only from a CDN or object store.

Both ways are one httpx client, so the held catalogue's loader and checks
and the reader's manifests are the same code either way; read locally, the
client's transport is PublishedFolder, which answers from the files with no
request leaving the process (before, the backend fetched its own files from
http://127.0.0.1:{port}, through its whole HTTP layer)."""

from __future__ import annotations

import asyncio
import mimetypes
from pathlib import Path
from urllib.parse import unquote

import httpx

from manga_app.core.config import Settings

# The base URL of a local catalogue: a name for the folder, never dialled.
LOCAL_BASE = "http://published.local"


class PublishedFolder(httpx.AsyncBaseTransport):
    """GET and HEAD of the files under `root`, with the validators the site's
    own HTTP layer gives them (web/catalogue_files.py): an ETag of the file's
    time and size, so the held catalogue sees a publish the same way."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method not in ("GET", "HEAD"):
            return httpx.Response(405, request=request)
        found = await asyncio.to_thread(self._read, unquote(request.url.path), request.method == "GET")
        if found is None:
            return httpx.Response(404, request=request)
        content, size, modified = found
        headers = {
            "ETag": f'"{modified:x}-{size:x}"',
            "Content-Length": str(size),
            "Content-Type": mimetypes.guess_type(request.url.path)[0] or "application/octet-stream",
        }
        return httpx.Response(200, headers=headers, content=content, request=request)

    def _read(self, path: str, with_body: bool) -> tuple[bytes, int, int] | None:
        file = (self.root / path.lstrip("/")).resolve()
        if not file.is_relative_to(self.root):
            return None  # `..` out of the folder
        try:
            stat = file.stat()
            if not file.is_file():
                return None
            return (file.read_bytes() if with_body else b""), stat.st_size, stat.st_mtime_ns
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            return None


def source(settings: Settings) -> tuple[str, httpx.AsyncBaseTransport | None]:
    """The catalogue's base URL and the transport to read it with (None: the network)."""
    if settings.catalogue_url:
        return settings.catalogue_url.rstrip("/"), None
    return LOCAL_BASE, PublishedFolder(settings.published_dir)
