"""The held catalogue's storage: columns, not one object per series.

Every backend process holds every listed series for every visitor, so what a
series costs is paid 100,000 times per process. A Python object per series
(and a dict, a datetime, a tuple and a string per field) costs over a
kilobyte; here each text field is one long string per column with an offset
array, numbers and times are typed arrays, genre names are interned ids, and
cover URLs keep only their content hash (prefix and suffix are shared).

`MangaItem` records are built on demand (a page shows a few dozen), so the
rest of the backend reads items as before. Pure module: no framework or I/O.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

STATUSES = ("ongoing", "completed")
# Separates the values of a multi-valued field inside its column.
_SEP = "\x1f"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
# A content-hashed media URL: shared prefix, the hash, shared suffix.
_HASHED_URL = re.compile(r"^(.*?)((?:[0-9a-f]{2}){16,64})([^0-9a-f][^/]*)$")
_RAW = 0xFFFF  # "not a hashed URL": the text is kept whole
_SAME = 0xFFFE  # the small cover is the cover itself


@dataclass(frozen=True, slots=True)
class GenreCount:
    name: str
    total: int


@dataclass(frozen=True, slots=True)
class MangaItem:
    """One entry of `mangas_{page}.json`, typed (built on demand from the columns)."""

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


def parse_time(value: object) -> datetime:
    moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _micros(moment: datetime) -> int:
    return (moment - _EPOCH) // _MICROSECOND


class _TextColumn:
    """Many short strings as one string and end offsets."""

    __slots__ = ("parts", "ends", "text", "_length")

    def __init__(self) -> None:
        self.parts: list[str] | None = []
        self.ends = array("I")
        self.text = ""
        self._length = 0

    def add(self, value: str) -> None:
        self.parts.append(value)
        self._length += len(value)
        self.ends.append(self._length)

    def freeze(self) -> None:
        self.text = "".join(self.parts)
        self.parts = None

    def __getitem__(self, index: int) -> str:
        return self.text[self.ends[index - 1] if index else 0 : self.ends[index]]

    def values(self, index: int) -> tuple[str, ...]:
        joined = self[index]
        return tuple(joined.split(_SEP)) if joined else ()

    def nbytes(self) -> int:
        return _str_bytes(self.text) + self.ends.itemsize * len(self.ends)


def _str_bytes(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) * (4 if max(text) > "\uffff" else 2)


class _Interned:
    """Repeated strings (genre names, URL prefixes) stored once, by id."""

    __slots__ = ("names", "ids")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.ids: dict[str, int] = {}

    def id_of(self, name: str) -> int:
        found = self.ids.get(name)
        if found is None:
            found = self.ids[name] = len(self.names)
            self.names.append(name)
        return found


class _UrlColumn:
    """Cover URLs: (prefix id, hash bytes, suffix id); anything else kept whole."""

    __slots__ = ("parts", "prefix", "suffix", "hashes", "ends")

    def __init__(self, parts: _Interned) -> None:
        self.parts = parts
        self.prefix = array("H")
        self.suffix = array("H")
        # The hash's bytes, or a URL of another shape as UTF-8.
        self.hashes = bytearray()
        self.ends = array("I")

    def add(self, url: str) -> None:
        found = _HASHED_URL.match(url)
        if found and len(self.parts.names) < _SAME - 1:
            self.prefix.append(self.parts.id_of(found.group(1)))
            self.suffix.append(self.parts.id_of(found.group(3)))
            self.hashes += bytes.fromhex(found.group(2))
        else:
            self.prefix.append(_RAW)
            self.suffix.append(_RAW)
            self.hashes += url.encode()
        self.ends.append(len(self.hashes))

    def variant_suffix(self, url: str, of: int) -> int:
        """The suffix id that turns entry `of` into `url`, or _RAW when more differs."""
        if url == self.url(of):
            return _SAME
        found = _HASHED_URL.match(url)
        if not found or self.prefix[of] == _RAW or len(self.parts.names) >= _SAME - 1:
            return _RAW
        start = self.ends[of - 1] if of else 0
        if self.parts.names[self.prefix[of]] != found.group(1) or self.hashes[start : self.ends[of]].hex() != found.group(2):
            return _RAW
        return self.parts.id_of(found.group(3))

    def url(self, index: int, suffix: int | None = None) -> str:
        prefix = self.prefix[index]
        start = self.ends[index - 1] if index else 0
        if prefix == _RAW:
            return self.hashes[start : self.ends[index]].decode()
        names = self.parts.names
        return f"{names[prefix]}{self.hashes[start : self.ends[index]].hex()}{names[self.suffix[index] if suffix is None else suffix]}"

    def nbytes(self) -> int:
        arrays = (self.prefix, self.suffix, self.ends)
        return len(self.hashes) + sum(a.itemsize * len(a) for a in arrays)


class CatalogueBuilder:
    """Collects list items (raw JSON dicts or MangaItems) into a Catalogue."""

    def __init__(self) -> None:
        self._interned = _Interned()
        self._genres = _Interned()
        self._slug, self._title, self._alts = _TextColumn(), _TextColumn(), _TextColumn()
        self._readings, self._authors = _TextColumn(), _TextColumn()
        self._genre_ids, self._genre_ends = array("H"), array("I")
        self._covers = _UrlColumn(self._interned)
        self._small_suffix = array("H")
        self._small_raw: dict[int, str] = {}
        self._status = bytearray()
        self._latest = array("d")
        self._updated, self._created, self._views = array("q"), array("q"), array("q")
        self._chapters = array("I")
        self._count = 0

    def add(self, raw: dict) -> None:
        """Type one list item; raises ValueError/KeyError/TypeError when malformed
        (nothing of the item is kept then)."""
        status = raw["status"]
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        updated = parse_time(raw["updated_at"])
        created = parse_time(raw["created_at"]) if raw.get("created_at") else updated
        readings: list[str] = []
        for reading in raw.get("readings") or ():
            if isinstance(reading, dict):
                readings.extend(str(reading.get(key) or "") for key in ("hiragana", "katakana", "romaji"))
        cover = str(raw["cover"])
        self._append(
            slug=str(raw["slug"]),
            title=str(raw["title"]),
            alt_titles=[str(t) for t in raw.get("alt_titles") or ()],
            cover=cover,
            cover_small=str(raw.get("cover_small") or cover),
            genres=[str(g) for g in raw.get("genres") or ()],
            status=STATUSES.index(status),
            latest=float(raw["latest_chapter"]),
            updated=_micros(updated),
            created=_micros(created),
            views=int(raw["views"]),
            authors=[str(a) for a in raw.get("authors") or ()],
            readings=[r for r in readings if r],
            chapters=int(raw.get("chapters_count") or 0),
        )

    def add_item(self, item: MangaItem) -> None:
        self._append(
            slug=item.slug, title=item.title, alt_titles=list(item.alt_titles), cover=item.cover,
            cover_small=item.cover_small, genres=list(item.genres), status=STATUSES.index(item.status),
            latest=float(item.latest_chapter), updated=_micros(item.updated_at), created=_micros(item.created_at),
            views=int(item.views), authors=list(item.authors), readings=[r for r in item.readings if r],
            chapters=int(item.chapters),
        )

    def _append(self, *, slug, title, alt_titles, cover, cover_small, genres, status, latest, updated, created,
                views, authors, readings, chapters) -> None:
        if any(_SEP in text for text in (*alt_titles, *authors, *readings)):
            raise ValueError("a field contains a control character")
        # Check every value before the first column grows: a bad item leaves no trace.
        numbers = (array("d", [latest]), array("q", [updated, created, views]), array("I", [chapters]))
        index = self._count
        self._slug.add(slug)
        self._title.add(title)
        self._alts.add(_SEP.join(alt_titles))
        self._readings.add(_SEP.join(readings))
        self._authors.add(_SEP.join(authors))
        for genre in dict.fromkeys(genres):
            self._genre_ids.append(self._genres.id_of(genre))
        self._genre_ends.append(len(self._genre_ids))
        self._covers.add(cover)
        small = self._covers.variant_suffix(cover_small, index)
        if small == _RAW:
            self._small_raw[index] = cover_small
        self._small_suffix.append(small)
        self._status.append(status)
        self._latest += numbers[0]
        self._updated.append(numbers[1][0])
        self._created.append(numbers[1][1])
        self._views.append(numbers[1][2])
        self._chapters += numbers[2]
        self._count += 1

    def __len__(self) -> int:
        return self._count

    def build(self) -> Catalogue:
        for column in (self._slug, self._title, self._alts, self._readings, self._authors):
            column.freeze()
        return Catalogue(self)


class Catalogue(Sequence[MangaItem]):
    """The held list, in published order; `catalogue[i]` builds item i."""

    def __init__(self, built: CatalogueBuilder) -> None:
        self._count = len(built)
        self.slugs, self.titles, self.alts = built._slug, built._title, built._alts
        self.readings_column, self.authors_column = built._readings, built._authors
        self.genre_names: tuple[str, ...] = tuple(built._genres.names)
        self.genre_ids, self._genre_ends = built._genre_ids, built._genre_ends
        self._covers, self._small_suffix, self._small_raw = built._covers, built._small_suffix, built._small_raw
        self.status = bytes(built._status)
        self.latest, self.views, self.chapters = built._latest, built._views, built._chapters
        self.updated, self.created = built._updated, built._created
        # Slug lookups: ids sorted by slug, searched by bisection.
        self._by_slug = array("I", sorted(range(self._count), key=self.slugs.__getitem__))

    @classmethod
    def of(cls, items: Iterable[MangaItem]) -> Catalogue:
        builder = CatalogueBuilder()
        for item in items:
            builder.add_item(item)
        return builder.build()

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.item(i) for i in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self.item(index)

    def __iter__(self) -> Iterator[MangaItem]:
        return map(self.item, range(self._count))

    def genres_of(self, index: int) -> Sequence[int]:
        return self.genre_ids[self._genre_ends[index - 1] if index else 0 : self._genre_ends[index]]

    def cover(self, index: int) -> str:
        return self._covers.url(index)

    def cover_small(self, index: int) -> str:
        suffix = self._small_suffix[index]
        if suffix == _SAME:
            return self._covers.url(index)
        return self._small_raw[index] if suffix == _RAW else self._covers.url(index, suffix)

    def item(self, index: int) -> MangaItem:
        updated = _EPOCH + self.updated[index] * _MICROSECOND
        created = _EPOCH + self.created[index] * _MICROSECOND
        names = self.genre_names
        return MangaItem(
            slug=self.slugs[index], title=self.titles[index], alt_titles=self.alts.values(index),
            cover=self.cover(index), genres=tuple(names[g] for g in self.genres_of(index)),
            status=STATUSES[self.status[index]], latest_chapter=self.latest[index], updated_at=updated,
            views=self.views[index], created_at=created, authors=self.authors_column.values(index),
            readings=self.readings_column.values(index), cover_small=self.cover_small(index),
            chapters=self.chapters[index],
        )

    def find(self, slug: str) -> int:
        """The id of `slug`, or -1."""
        slugs, order = self.slugs, self._by_slug
        low, high = 0, len(order)
        while low < high:
            middle = (low + high) // 2
            if slugs[order[middle]] < slug:
                low = middle + 1
            else:
                high = middle
        return order[low] if low < len(order) and slugs[order[low]] == slug else -1

    def nbytes(self) -> int:
        """The columns' payload (what grows with the catalogue)."""
        arrays = (self.genre_ids, self._genre_ends, self._small_suffix, self.latest, self.views, self.chapters,
                  self.updated, self.created, self._by_slug)
        texts = (self.slugs, self.titles, self.alts, self.readings_column, self.authors_column)
        return (sum(a.itemsize * len(a) for a in arrays) + sum(t.nbytes() for t in texts) + self._covers.nbytes()
                + len(self.status) + sum(100 + len(v) for v in self._small_raw.values()))


class Ordering(Sequence[MangaItem]):
    """Items of a catalogue in some order (ids in an array), built on access."""

    def __init__(self, catalogue: Catalogue, ids: Iterable[int]) -> None:
        self.catalogue = catalogue
        self.ids = ids if isinstance(ids, array) else array("I", ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.catalogue.item(i) for i in self.ids[index]]
        return self.catalogue.item(self.ids[index])

    def __iter__(self) -> Iterator[MangaItem]:
        return map(self.catalogue.item, self.ids)


class SlugIndex:
    """`by_slug` of a snapshot: a read-only mapping from slug to item."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue

    def get(self, slug: str, default: MangaItem | None = None) -> MangaItem | None:
        index = self.catalogue.find(slug) if isinstance(slug, str) else -1
        return default if index < 0 else self.catalogue.item(index)

    def __contains__(self, slug: object) -> bool:
        return isinstance(slug, str) and self.catalogue.find(slug) >= 0

    def __getitem__(self, slug: str) -> MangaItem:
        found = self.get(slug)
        if found is None:
            raise KeyError(slug)
        return found

    def __len__(self) -> int:
        return len(self.catalogue)


def sorted_ids(keys: Sequence, *, reverse: bool = False) -> array:
    """Ids ordered by `keys[id]` (stable: equal keys keep id order)."""
    return array("I", sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse))
