"""The catalogue held once per backend process and shared by every visitor.

Loaded with the spec's loader (loader.py) on first use, then re-checked at
most every REFRESH_SECONDS: when the published list changed (its ETag), a
fresh copy is loaded in the background and swapped in whole, so readers
never see a mix and never wait for a reload. Genres follow the spec's rule:
loaded lazily, only while the held list is empty (a publish empties it),
and a failure is only logged, so the next check tries again."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import httpx

from manga_app.read_models.compact import Catalogue, GenreCount, MangaItem
from manga_app.read_models.orderings import Ordering, SlugIndex
from manga_app.read_models import published
from manga_app.read_models.loader import CatalogueLoader, catalogue_of
from manga_app.core.config import get_settings
from manga_app.core.heap import freeze_long_lived

logger = logging.getLogger(__name__)

REFRESH_SECONDS = 30.0
_NO_CATALOGUE = Catalogue.of(())


@dataclass(frozen=True)
class Snapshot:
    """One consistent version of the published catalogue, with its orderings."""

    mangas: Catalogue = _NO_CATALOGUE
    genres: tuple[GenreCount, ...] = ()
    version: str = ""
    by_slug: SlugIndex = field(default_factory=lambda: SlugIndex(_NO_CATALOGUE))
    latest: Ordering = field(default_factory=lambda: Ordering(_NO_CATALOGUE, ()))
    popular: Ordering = field(default_factory=lambda: Ordering(_NO_CATALOGUE, ()))
    newest: Ordering = field(default_factory=lambda: Ordering(_NO_CATALOGUE, ()))

    @classmethod
    def build(cls, mangas: Sequence[MangaItem], genres: Sequence[GenreCount], version: str) -> Snapshot:
        catalogue = catalogue_of(mangas)
        ids = range(len(catalogue))
        titles, views = catalogue.titles, catalogue.views
        return cls(
            mangas=catalogue,
            genres=sort_genres(genres),
            version=version,
            by_slug=SlugIndex(catalogue),
            latest=Ordering(catalogue, sorted(ids, key=catalogue.updated.__getitem__, reverse=True)),
            popular=Ordering(catalogue, sorted(ids, key=lambda i: (-views[i], titles[i]))),
            newest=Ordering(catalogue, sorted(ids, key=catalogue.created.__getitem__, reverse=True)),
        )

    def with_genres(self, genres: Sequence[GenreCount]) -> Snapshot:
        return replace(self, genres=sort_genres(genres))


def sort_genres(genres: Sequence[GenreCount]) -> tuple[GenreCount, ...]:
    return tuple(sorted(genres, key=lambda genre: (-genre.total, genre.name)))


EMPTY = Snapshot()


class HeldCatalogue:
    def __init__(
        self, base_url: str, *, refresh_seconds: float = REFRESH_SECONDS, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.transport = transport  # published.PublishedFolder for a local catalogue
        self.refresh_seconds = refresh_seconds
        self._snapshot = EMPTY
        self._genres_version = ""
        self._checked_at = float("-inf")
        self._lock: asyncio.Lock | None = None
        self._refreshing: asyncio.Task | None = None

    @property
    def current(self) -> Snapshot:
        """What is held now, without loading or checking."""
        return self._snapshot

    async def snapshot(self) -> Snapshot:
        """The held catalogue. The first call waits for the load; later ones
        get what is held while a due check (and reload) runs in the background."""
        due = time.monotonic() - self._checked_at >= self.refresh_seconds
        if self._snapshot is EMPTY or not self._snapshot.mangas:
            await self.refresh()
        elif due and (self._refreshing is None or self._refreshing.done()):
            self._refreshing = asyncio.get_running_loop().create_task(self.refresh())
        return self._snapshot

    async def refresh(self) -> Snapshot:
        """Check the published catalogue now, reloading what changed."""
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            if self._snapshot is not EMPTY and time.monotonic() - self._checked_at < self.refresh_seconds and self._snapshot.mangas:
                return self._snapshot
            await self._refresh()
        return self._snapshot

    async def _refresh(self) -> None:
        genres_tag, list_tag = await self._published_tags()
        snapshot = self._snapshot
        loader = CatalogueLoader(self.base_url, transport=self.transport)
        if not list_tag or list_tag != snapshot.version or not snapshot.mangas:
            if not await loader.load_mangas():
                return  # logged by the loader; keep what is held, check again next time
            snapshot = Snapshot.build(loader.mangas, (), list_tag)
            self._genres_version = ""
        genres = snapshot.genres if genres_tag and genres_tag == self._genres_version else ()
        if not genres:
            genres = tuple(await loader.load_genres())
            self._genres_version = genres_tag if genres else ""
        if genres != snapshot.genres:
            snapshot = snapshot.with_genres(genres)
        installed = snapshot is not self._snapshot
        self._snapshot = snapshot
        self._checked_at = time.monotonic()
        if installed:
            freeze_long_lived()

    async def _published_tags(self) -> tuple[str, str]:
        """Validators of the genre list and the first list page: they change on every publish."""
        try:
            async with httpx.AsyncClient(base_url=self.base_url, timeout=5, transport=self.transport) as client:
                return (
                    _validator(await client.head("/genres.json")),
                    _validator(await client.head("/mangas_1.json")),
                )
        except httpx.HTTPError as error:
            logger.warning("Could not check the published catalogue: %s", error)
            return "", ""


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
        base_url, transport = published.source(settings)
        _HELD = HeldCatalogue(base_url, refresh_seconds=settings.catalogue_refresh_seconds, transport=transport)
    return _HELD
