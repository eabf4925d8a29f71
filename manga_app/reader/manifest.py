"""The chapter's page list, read from the published catalogue (its folder,
or a CDN in production: read_models/published.py) and decrypted here, on the
server, with the spec's helper (docs/spec.md section 7): the content key
never leaves the server (README, "Where page lists are decrypted")."""

from __future__ import annotations

import asyncio
import logging
import weakref

import httpx

from manga_app.core import routes
from manga_app.core.config import content_key, get_settings
from manga_app.read_models import published
from manga_app.reader.logic import ManifestError, decrypt_manifest

logger = logging.getLogger(__name__)

MANIFEST_TIMEOUT_SECONDS = 10.0


# One HTTP client per event loop (each server worker has its own loop):
# creating a client costs tens of milliseconds, reusing it nothing.
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient] = weakref.WeakKeyDictionary()


def _client() -> httpx.AsyncClient:
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None or client.is_closed:
        base_url, transport = published.source(get_settings())
        client = _clients[loop] = httpx.AsyncClient(base_url=base_url, transport=transport, timeout=MANIFEST_TIMEOUT_SECONDS)
    return client


async def fetch_manifest_pages(slug: str, number: str) -> list[dict]:
    """The chapter's page list from the published catalogue, decrypted;
    ManifestError when it is missing or unreadable."""
    try:
        response = await _client().get(routes.manifest_path(slug, number))
    except httpx.HTTPError as error:
        raise ManifestError(f"manifest request failed: {type(error).__name__}") from error
    if response.status_code != 200:
        raise ManifestError(f"manifest answered HTTP {response.status_code}")
    return await asyncio.to_thread(decrypt_manifest, response.content, content_key(get_settings()))


async def chapter_pages(slug: str, number: str, prefetched: list[dict] | None) -> list[dict] | None:
    """The chapter's pages (prefetched near the end of the previous
    chapter, else from the manifest), or None when they cannot be read."""
    if prefetched is not None:
        return prefetched
    try:
        return await fetch_manifest_pages(slug, number)
    except ManifestError as error:
        logger.warning("reader: %s for %s/%s", error, slug, number)
        return None
