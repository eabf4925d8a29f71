"""The spec's list loading, as the backend does it (docs/spec.md sections 4, 7, 8).

- Genres load lazily, only when the held list is empty; a failed fetch is
  only logged. Genres with an empty or null name, or a total of 0 or less,
  are dropped (and so are totals that are not whole numbers).
- The manga list loads only when it is empty: `mangas_1.json`,
  `mangas_2.json`, ... one after another until a page comes back empty or not
  OK ('Page not found' ends the loading); the pages are then concatenated.
  If initialising fails, 'Failed to load or initialize search:' is logged and
  the call returns False.

Items go straight into the compact columns of compact.py: the list is held
once per process for every visitor, so its size matters."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import httpx
import orjson

from manga_app.core.heap import collector_paused
from manga_app.read_models.compact import STATUSES, Catalogue, CatalogueBuilder, GenreCount, MangaItem

__all__ = ["STATUSES", "CatalogueLoader", "GenreCount", "MangaItem", "PageNotFound", "keep_genre"]

logger = logging.getLogger(__name__)

# What the loader asks for. Over loopback or a LAN, identity is faster than
# gzip + decompression (benchmarks/bench_loader.py measures both); a CDN
# far away is the case for gzip, so it can be chosen per loader.
ACCEPT_ENCODING = "identity"


class PageNotFound(Exception):
    """A `mangas_{page}.json` answered with a non-OK status."""


def keep_genre(raw: object) -> GenreCount | None:
    """The spec's genre rule: a non-empty name and a positive, whole total."""
    if not isinstance(raw, dict):
        return None
    name, total = raw.get("name"), raw.get("total")
    if not isinstance(name, str) or not name.strip():
        return None
    if isinstance(total, bool) or not isinstance(total, (int, float)):
        return None
    if isinstance(total, float) and not total.is_integer():
        return None
    if total <= 0:
        return None
    return GenreCount(name=name.strip(), total=int(total))


class CatalogueLoader:
    """Loads the published lists from `base_url` (our server or a CDN)."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
        accept_encoding: str = ACCEPT_ENCODING,
        log_error: Callable[..., None] | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        # How a failure is logged (logger.error's arguments): the held catalogue's
        # watch passes one that says a failure once while it repeats.
        self.log_error = log_error or logger.error
        self.timeout = timeout
        self.transport = transport
        self.accept_encoding = accept_encoding
        self.genres: list[GenreCount] = []
        self.mangas: Sequence[MangaItem] = ()

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.base_url,
            timeout=self.timeout,
            transport=self.transport,
            headers={"Accept-Encoding": self.accept_encoding},
        )

    async def load_genres(self) -> list[GenreCount]:
        if self.genres:
            return self.genres
        try:
            async with self._client() as client:
                response = await client.get("/genres.json")
                response.raise_for_status()
                raw = orjson.loads(response.content)
            if not isinstance(raw, list):
                raise ValueError("genres.json is not a list")
            self.genres = [genre for genre in map(keep_genre, raw) if genre is not None]
        except Exception as error:  # the spec: genre errors are only logged
            self.log_error("Failed to load genres: %s", error)
        return self.genres

    async def load_mangas(self) -> bool:
        if self.mangas:
            return True
        try:
            builder = CatalogueBuilder()
            async with self._client() as client:
                page = 1
                while True:
                    try:
                        response = await self._fetch_page(client, page)
                    except PageNotFound:
                        break
                    with collector_paused():
                        items = _items_of(response, page)
                        if not items:
                            break
                        builder.add_page(items)
                    page += 1
            self.mangas = builder.build()
            return True
        except Exception as error:
            self.log_error("Failed to load or initialize search: %s", error)
            return False

    async def _fetch_page(self, client: httpx.AsyncClient, page: int) -> httpx.Response:
        response = await client.get(f"/mangas_{page}.json")
        if not response.is_success:
            raise PageNotFound("Page not found")
        return response


def _items_of(response: httpx.Response, page: int) -> list[dict]:
    body = orjson.loads(response.content)
    items = body.get("list") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise ValueError(f"mangas_{page}.json has no list")
    return items


def catalogue_of(mangas: Sequence[MangaItem]) -> Catalogue:
    """The compact form of any list of items (already compact: itself)."""
    return mangas if isinstance(mangas, Catalogue) else Catalogue.of(mangas)
