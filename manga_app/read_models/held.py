"""The catalogue held once per backend process and shared by every visitor.

Loaded with the spec's loader (loader.py) on first use, then re-checked at
most every REFRESH_SECONDS: when the published list changed (its ETag), a
fresh copy is loaded in the background and swapped in whole, so readers
never see a mix and never wait for a reload. `watch` checks on a timer
whatever the visitors do, and tells its listeners which series gained
units (web/publish_push.py pushes that to open tabs). Genres follow the spec's rule:
loaded lazily, only while the held list is empty (a publish empties it),
and a failure is only logged, so the next check tries again."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
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
# At most this many series are named to listeners for one publish.
MAX_CHANGED = 1000

Listener = Callable[[list[str]], Awaitable[None]]


def changed_series(old: Snapshot, new: Snapshot) -> list[str]:
    """Slugs of the series that gained or changed units from `old` to `new`,
    most recently updated first: only the series updated since `old`'s newest
    update are looked at, so a publish costs the same at any catalogue size."""
    if not old.mangas or not len(old.latest):
        return []
    since = old.latest[0].updated_at
    found: list[str] = []
    for item in new.latest:
        if item.updated_at < since or len(found) >= MAX_CHANGED:
            break
        before = old.by_slug.get(item.slug)
        if before is None or (before.latest_chapter, before.chapters, before.updated_at) != (
            item.latest_chapter, item.chapters, item.updated_at
        ):
            found.append(item.slug)
    return found


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
        self._listeners: list[Listener] = []
        self._telling: set[asyncio.Task] = set()
        self._failures: set[str] = set()  # the failures logged (their text), each once while it repeats
        self._failed_now = False  # whether the check under way failed in part

    def _log_error(self, message: str, *args, exc_info: bool = False) -> None:
        """A failed check, logged the first time only: the watch checks every
        few seconds, and the same failure would fill the log."""
        text = message % args
        self._failed_now = True
        if text in self._failures:
            return
        if len(self._failures) >= 100:  # failures that never repeat alike are all logged, the memo bounded
            self._failures.clear()
        self._failures.add(text)
        logger.error("%s (not logged again while it repeats)", text, exc_info=exc_info)

    def listen(self, listener: Listener) -> None:
        """`listener(slugs)` is awaited after each publish that changed series."""
        self._listeners.append(listener)

    async def watch(self, every: float) -> None:
        """Check the published catalogue every `every` seconds, forever (a
        lifespan task): a publish reaches the listeners that much later."""
        while True:
            try:
                await self.refresh(force=True)
            except Exception:  # never let one failed check end the watch
                self._log_error("Checking the published catalogue failed", exc_info=True)
            await asyncio.sleep(every)

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

    async def refresh(self, *, force: bool = False) -> Snapshot:
        """Check the published catalogue now, reloading what changed (unless
        it was checked within `refresh_seconds` and not `force`)."""
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            fresh = time.monotonic() - self._checked_at < self.refresh_seconds
            if self._snapshot is not EMPTY and fresh and self._snapshot.mangas and not force:
                return self._snapshot
            await self._refresh()
        return self._snapshot

    async def _refresh(self) -> None:
        self._failed_now = False
        genres_tag, list_tag = await self._published_tags()
        snapshot = self._snapshot
        loader = CatalogueLoader(self.base_url, transport=self.transport, log_error=self._log_error)
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
        if self._failures and not self._failed_now:
            logger.warning("The published catalogue loads again")
            self._failures.clear()
        installed, old = snapshot is not self._snapshot, self._snapshot
        self._snapshot = snapshot
        self._checked_at = time.monotonic()
        if installed:
            freeze_long_lived()
            await self._tell(changed_series(old, snapshot))

    async def _tell(self, slugs: list[str]) -> None:
        """Each listener in a task of its own: the check (under the lock) never waits for them."""
        for listener in self._listeners if slugs else ():
            task = asyncio.get_running_loop().create_task(listener(slugs))
            self._telling.add(task)
            task.add_done_callback(_told(self._telling))

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


def _told(tasks: set[asyncio.Task]):
    def done(task: asyncio.Task) -> None:
        tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("A listener of the held catalogue failed", exc_info=task.exception())

    return done


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
