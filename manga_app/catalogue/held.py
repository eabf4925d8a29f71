"""The catalogue held once per backend process and shared by every visitor.

Loaded with the spec's loader (loader.py) on first use, then re-checked at
most every REFRESH_SECONDS: when the published lists changed (their ETags),
a fresh copy is loaded and swapped in whole, so readers never see a mix."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field

import httpx

from manga_app.catalogue.loader import CatalogueLoader, GenreCount, MangaItem
from manga_app.config import get_settings

logger = logging.getLogger(__name__)

REFRESH_SECONDS = 30.0


@dataclass(frozen=True)
class Snapshot:
    """One consistent version of the published catalogue, with its orderings."""

    mangas: tuple[MangaItem, ...] = ()
    genres: tuple[GenreCount, ...] = ()
    version: str = ""
    by_slug: dict[str, MangaItem] = field(default_factory=dict)
    latest: tuple[MangaItem, ...] = ()
    popular: tuple[MangaItem, ...] = ()
    newest: tuple[MangaItem, ...] = ()

    @classmethod
    def build(cls, mangas: list[MangaItem], genres: list[GenreCount], version: str) -> Snapshot:
        return cls(
            mangas=tuple(mangas),
            genres=tuple(sorted(genres, key=lambda genre: (-genre.total, genre.name))),
            version=version,
            by_slug={item.slug: item for item in mangas},
            latest=tuple(sorted(mangas, key=lambda item: item.updated_at, reverse=True)),
            popular=tuple(sorted(mangas, key=lambda item: (-item.views, item.title))),
            newest=tuple(sorted(mangas, key=lambda item: item.created_at, reverse=True)),
        )


EMPTY = Snapshot()


class HeldCatalogue:
    def __init__(self, base_url: str, *, refresh_seconds: float = REFRESH_SECONDS) -> None:
        self.base_url = base_url.rstrip("/")
        self.refresh_seconds = refresh_seconds
        self._snapshot = EMPTY
        self._checked_at = float("-inf")
        self._lock: asyncio.Lock | None = None

    @property
    def current(self) -> Snapshot:
        """What is held now, without loading or checking."""
        return self._snapshot

    async def snapshot(self) -> Snapshot:
        """The held catalogue, loaded or refreshed first when due."""
        if time.monotonic() - self._checked_at < self.refresh_seconds and self._snapshot is not EMPTY:
            return self._snapshot
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            if time.monotonic() - self._checked_at >= self.refresh_seconds or self._snapshot is EMPTY:
                await self._refresh()
        return self._snapshot

    async def _refresh(self) -> None:
        version = await self._published_version()
        if version and version == self._snapshot.version:
            self._checked_at = time.monotonic()
            return
        loader = CatalogueLoader(self.base_url)
        await loader.load_genres()
        if await loader.load_mangas():
            self._snapshot = Snapshot.build(loader.mangas, loader.genres, version)
            self._checked_at = time.monotonic()

    async def _published_version(self) -> str:
        """Validators of the genre list and the first list page: they change on every publish."""
        try:
            async with httpx.AsyncClient(base_url=self.base_url, timeout=5) as client:
                tags = [_validator(await client.head(path)) for path in ("/genres.json", "/mangas_1.json")]
        except httpx.HTTPError as error:
            logger.warning("Could not check the published catalogue: %s", error)
            return ""
        return "|".join(tags) if all(tags) else ""


def _validator(response: httpx.Response) -> str:
    """ETag, else Last-Modified with the length (a plain file server or CDN)."""
    if not response.is_success:
        return ""
    headers = response.headers
    if etag := headers.get("etag"):
        return etag
    modified = headers.get("last-modified")
    return f"{modified}/{headers.get('content-length', '')}" if modified else ""


_HELD: HeldCatalogue | None = None


def held_catalogue() -> HeldCatalogue:
    """This process's held catalogue (created on first use, after any fork)."""
    global _HELD
    if _HELD is None:
        settings = get_settings()
        _HELD = HeldCatalogue(settings.catalogue_base, refresh_seconds=settings.catalogue_refresh_seconds)
    return _HELD
