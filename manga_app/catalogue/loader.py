"""The spec's list loading, as the backend does it (spec sections 4, 7, 8).

- Genres load lazily, only when the held list is empty; a failed fetch is
  only logged. Genres with an empty or null name, or a total of 0 or less,
  are dropped.
- The manga list loads only when it is empty: `mangas_1.json`,
  `mangas_2.json`, ... one after another until a page comes back empty or not
  OK ('Page not found' ends the loading); the pages are then concatenated.
  If initialising fails, 'Failed to load or initialize search:' is logged and
  the call returns False.

Items are kept as slotted tuples, not dicts: the list is held once per
process for every visitor, so its size matters."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime

import httpx

logger = logging.getLogger(__name__)

STATUSES = ("ongoing", "completed")


class PageNotFound(Exception):
    """A `mangas_{page}.json` answered with a non-OK status."""


@dataclass(frozen=True, slots=True)
class GenreCount:
    name: str
    total: int


@dataclass(frozen=True, slots=True)
class MangaItem:
    """One entry of `mangas_{page}.json`, typed."""

    slug: str
    title: str
    alt_titles: tuple[str, ...]
    cover: str
    genres: tuple[str, ...]
    status: str
    latest_chapter: float
    updated_at: datetime
    views: int
    created_at: datetime
    authors: tuple[str, ...]
    # Readings (kana) and romaji generated at import, for search.
    readings: tuple[str, ...]
    cover_small: str
    chapters: int


def keep_genre(raw: object) -> GenreCount | None:
    """The spec's genre rule: a non-empty name and a positive total."""
    if not isinstance(raw, dict):
        return None
    name, total = raw.get("name"), raw.get("total")
    if not isinstance(name, str) or not name.strip():
        return None
    if isinstance(total, bool) or not isinstance(total, (int, float)) or total <= 0:
        return None
    return GenreCount(name=name.strip(), total=int(total))


def parse_item(raw: dict, *, intern: dict[str, str] | None = None) -> MangaItem:
    """Type one list item; raises ValueError/KeyError/TypeError when malformed."""
    shared = intern if intern is not None else {}

    def one(text: str) -> str:
        return shared.setdefault(text, text)

    status = raw["status"]
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}")
    updated_at = _parse_time(raw["updated_at"])
    readings: list[str] = []
    for reading in raw.get("readings") or ():
        if isinstance(reading, dict):
            readings.extend(
                str(reading.get(key) or "") for key in ("hiragana", "katakana", "romaji")
            )
    return MangaItem(
        slug=str(raw["slug"]),
        title=str(raw["title"]),
        alt_titles=tuple(str(t) for t in raw.get("alt_titles", ())),
        cover=str(raw["cover"]),
        genres=tuple(one(str(g)) for g in raw.get("genres", ())),
        status=one(status),
        latest_chapter=float(raw["latest_chapter"]),
        updated_at=updated_at,
        views=int(raw["views"]),
        created_at=_parse_time(raw["created_at"]) if raw.get("created_at") else updated_at,
        authors=tuple(one(str(a)) for a in raw.get("authors", ())),
        readings=tuple(str(r) for r in readings if r),
        cover_small=str(raw.get("cover_small") or raw["cover"]),
        chapters=int(raw.get("chapters_count", 0) or 0),
    )


def _parse_time(value: str) -> datetime:
    moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class CatalogueLoader:
    """Loads the published lists from `base_url` (our server or a CDN)."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.transport = transport
        self.genres: list[GenreCount] = []
        self.mangas: list[MangaItem] = []

    def _client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.base_url, timeout=self.timeout, transport=self.transport
        )

    async def load_genres(self) -> list[GenreCount]:
        if self.genres:
            return self.genres
        try:
            async with self._client() as client:
                response = await client.get("/genres.json")
                response.raise_for_status()
                raw = response.json()
            if not isinstance(raw, list):
                raise ValueError("genres.json is not a list")
            self.genres = [genre for genre in map(keep_genre, raw) if genre is not None]
        except Exception as error:  # the spec: genre errors are only logged
            logger.error("Failed to load genres: %s", error)
        return self.genres

    async def load_mangas(self) -> bool:
        if self.mangas:
            return True
        try:
            pages: list[list[MangaItem]] = []
            intern: dict[str, str] = {}
            async with self._client() as client:
                page = 1
                while True:
                    try:
                        items = await self._fetch_page(client, page)
                    except PageNotFound:
                        break
                    if not items:
                        break
                    pages.append([parse_item(item, intern=intern) for item in items])
                    page += 1
            self.mangas = [item for items in pages for item in items]
            return True
        except Exception as error:
            logger.error("Failed to load or initialize search: %s", error)
            return False

    async def _fetch_page(self, client: httpx.AsyncClient, page: int) -> list[dict]:
        response = await client.get(f"/mangas_{page}.json")
        if not response.is_success:
            raise PageNotFound("Page not found")
        body = response.json()
        items = body.get("list") if isinstance(body, dict) else None
        if not isinstance(items, list):
            raise ValueError(f"mangas_{page}.json has no list")
        return items
