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

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import accumulate, chain, islice
from operator import attrgetter, itemgetter

from manga_app.read_models.columns import RAW, SAME, SEP, Interned, TextColumn, UrlColumn

STATUSES = ("ongoing", "completed")
_STATUS_CODES = {name: code for code, name in enumerate(STATUSES)}
_READING_FORMS = ("hiragana", "katakana", "romaji")


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


def _strings(values: list, what: str) -> list:
    if not set(map(type, values)) <= {str}:
        raise TypeError(f"{what} must be text")
    return values


def _joined(lists: list, what: str) -> list[str]:
    """Each item's values of a list-of-text field, joined by SEP."""
    values = _strings(list(chain.from_iterable(lists)), what)
    if SEP in "".join(values):
        raise ValueError(f"{what} contains a control character")
    return list(map(SEP.join, lists))


def _reading_forms(readings: list) -> list[list[str]]:
    """Each item's non-empty reading forms, in order. Readings that hold
    only forms (what the publisher writes) are read with dict.values."""
    entries = list(chain.from_iterable(readings))
    if set(map(type, entries)) <= {dict} and set(chain.from_iterable(map(dict.keys, entries))) <= set(_READING_FORMS):
        return [list(filter(None, chain.from_iterable(map(dict.values, forms)))) for forms in readings]
    return [
        [form for reading in forms if isinstance(reading, dict) for key in _READING_FORMS if (form := reading.get(key))]
        for forms in readings
    ]


def _seconds(values: list) -> array:
    """ISO 8601 times as POSIX seconds (a time without a zone is UTC)."""
    moments = list(map(datetime.fromisoformat, _strings(values, "a time")))
    if None in set(map(attrgetter("tzinfo"), moments)):
        moments = [moment if moment.tzinfo else moment.replace(tzinfo=UTC) for moment in moments]
    return array("d", map(datetime.timestamp, moments))


class CatalogueBuilder:
    """Collects list pages (raw JSON items) into a Catalogue, a column at a time.

    A page is checked whole before any column grows: a malformed item raises
    ValueError/KeyError/TypeError and nothing of its page is kept."""

    def __init__(self) -> None:
        self._interned = Interned()
        self._genres = Interned()
        self._slug, self._title, self._alts = TextColumn(), TextColumn(), TextColumn()
        self._readings, self._authors = TextColumn(), TextColumn()
        self._genre_ids, self._genre_ends = array("H"), array("I")
        self._covers = UrlColumn(self._interned)
        self._small_suffix = array("H")
        self._small_raw: dict[int, str] = {}
        self._status = bytearray()
        self._latest = array("d")
        self._updated, self._created, self._views = array("d"), array("d"), array("q")
        self._chapters = array("I")
        self._count = 0

    def add(self, raw: dict) -> None:
        """One list item (see add_page)."""
        self.add_page([raw])

    def add_page(self, items: list[dict]) -> None:
        """The items of one `mangas_{page}.json`, in order."""
        if not items:
            return
        if not set(map(type, items)) <= {dict}:
            raise TypeError("a list item is not an object")
        statuses = list(map(itemgetter("status"), items))
        if not set(statuses) <= _STATUS_CODES.keys():
            raise ValueError(f"unknown status in {sorted(set(statuses) - _STATUS_CODES.keys(), key=str)!r}")
        updated = _seconds(list(map(itemgetter("updated_at"), items)))
        created_raw = [item.get("created_at") for item in items]
        created = updated if not any(created_raw) else _seconds(
            [value or item["updated_at"] for value, item in zip(created_raw, items)])
        covers = _strings(list(map(itemgetter("cover"), items)), "cover")
        smalls = _strings([item.get("cover_small") or cover for item, cover in zip(items, covers)], "cover_small")
        genre_lists = [item.get("genres") or () for item in items]
        genre_names = _strings(list(chain.from_iterable(genre_lists)), "genres")
        readings = _joined(_reading_forms([item.get("readings") or () for item in items]), "readings")
        columns = {
            "slug": _strings(list(map(itemgetter("slug"), items)), "slug"),
            "title": _strings(list(map(itemgetter("title"), items)), "title"),
            "alts": _joined([item.get("alt_titles") or () for item in items], "alt_titles"),
            "authors": _joined([item.get("authors") or () for item in items], "authors"),
        }
        latest = array("d", map(itemgetter("latest_chapter"), items))
        views = array("q", map(itemgetter("views"), items))
        chapters = array("I", (item.get("chapters_count") or 0 for item in items))
        # Everything checked: the columns grow.
        first = self._count
        self._slug.extend(columns["slug"])
        self._title.extend(columns["title"])
        self._alts.extend(columns["alts"])
        self._authors.extend(columns["authors"])
        self._readings.extend(readings)
        self._genre_ids.extend(self._genres.ids_of(genre_names))
        ends = accumulate(map(len, genre_lists), initial=len(self._genre_ids) - len(genre_names))
        self._genre_ends.extend(islice(ends, 1, None))
        self._add_small_covers(first, covers, smalls, self._covers.extend(covers))
        self._status += bytes(map(_STATUS_CODES.__getitem__, statuses))
        self._latest += latest
        self._updated += updated
        self._created += created
        self._views += views
        self._chapters += chapters
        self._count += len(items)

    def _add_small_covers(self, first: int, covers: list[str], smalls: list[str], split) -> None:
        """Each small cover as the suffix that turns its cover into it (most
        often -cover160 for -cover320), as SAME, or kept whole."""
        # The cover's prefix and hash, then a suffix of the same shape ("-...").
        heads = [prefix + key + "-" if prefix is not None else "\n" for prefix, key in zip(split[0], split[1])]
        shared = map(str.startswith, smalls, heads)
        variants = [small[len(head) - 1 :] if same and "/" not in small[len(head):] else None
                    for small, head, same in zip(smalls, heads, shared)]
        suffix_ids = dict(zip(filter(None, variants), self._interned.ids_of(filter(None, variants))))
        for index, (cover, small, variant) in enumerate(zip(covers, smalls, variants), start=first):
            if small == cover:
                self._small_suffix.append(SAME)
            elif variant is not None:
                self._small_suffix.append(suffix_ids[variant])
            else:
                self._small_suffix.append(RAW)
                self._small_raw[index] = small

    def add_items(self, items: Iterable[MangaItem]) -> None:
        self.add_page([_as_raw(item) for item in items])

    def __len__(self) -> int:
        return self._count

    def build(self) -> Catalogue:
        for column in (self._slug, self._title, self._alts, self._readings, self._authors):
            column.freeze()
        return Catalogue(self)


def _as_raw(item: MangaItem) -> dict:
    return {
        "slug": item.slug, "title": item.title, "alt_titles": list(item.alt_titles), "cover": item.cover,
        "cover_small": item.cover_small, "genres": list(item.genres), "status": item.status,
        "latest_chapter": item.latest_chapter, "updated_at": item.updated_at.isoformat(),
        "created_at": item.created_at.isoformat(), "views": item.views, "authors": list(item.authors),
        "readings": [{"hiragana": reading} for reading in item.readings], "chapters_count": item.chapters,
    }


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
        builder.add_items(items)
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
        if suffix == SAME:
            return self._covers.url(index)
        return self._small_raw[index] if suffix == RAW else self._covers.url(index, suffix)

    def item(self, index: int) -> MangaItem:
        updated = datetime.fromtimestamp(self.updated[index], UTC)
        created = datetime.fromtimestamp(self.created[index], UTC)
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
