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

from manga_app.read_models.columns import RAW, SAME, Interned, TextColumn, UrlColumn, row_of
from manga_app.read_models.list_pages import Page, page_of_items, page_of_raw

STATUSES = ("ongoing", "completed")
_STATUS_CODES = {name: code for code, name in enumerate(STATUSES)}


@dataclass(frozen=True, slots=True)
class GenreCount:
    name: str
    total: int


@dataclass(frozen=True, slots=True)
class SeriesFacts:
    """What every read model of a series holds: a list item here, the title
    page's and reader's view of it from the database (titles.SeriesView)."""

    slug: str
    title: str
    alt_titles: tuple[str, ...]
    authors: tuple[str, ...]
    status: str
    cover: str
    cover_small: str
    genres: tuple[str, ...]
    views: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class MangaItem(SeriesFacts):
    """One entry of `mangas_{page}.json`, typed (built on demand from the columns)."""

    latest_chapter: float  # the latest unit's key (routes.VOLUME_KEY): held, never published
    # Readings (kana) and romaji generated at import, for search.
    readings: tuple[str, ...]
    chapters: int
    # The artists (the authors are the writers) and the ComicInfo tags: the
    # author and tag pages list a series under each of them.
    artists: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    # The covers have AVIF copies beside them (cards.records.avif_twin).
    cover_avif: bool = False


class CatalogueBuilder:
    """Collects list pages (raw JSON items) into a Catalogue, a column at a time.

    A page is checked whole before any column grows: a malformed item raises
    ValueError/KeyError/TypeError and nothing of its page is kept."""

    def __init__(self) -> None:
        self._interned = Interned()
        self._genres = Interned()
        self._slug, self._title, self._alts = TextColumn(), TextColumn(), TextColumn()
        self._readings, self._authors = TextColumn(), TextColumn()
        self._artists, self._tags = TextColumn(), TextColumn()
        self._genre_ids, self._genre_ends = array("H"), array("I")
        self._covers = UrlColumn(self._interned)
        self._small_suffix = array("H")
        self._small_raw: dict[int, str] = {}
        self._status = bytearray()
        self._latest = array("d")
        self._updated, self._created, self._views = array("d"), array("d"), array("q")
        self._chapters = array("I")
        self._avif = bytearray()
        self._count = 0

    def add(self, raw: dict) -> None:
        """One list item (see add_page)."""
        self.add_page([raw])

    def add_page(self, items: list[dict]) -> None:
        """The items of one `mangas_{page}.json`, in order."""
        if items:
            self._grow(page_of_raw(items))

    def add_items(self, items: Iterable[MangaItem]) -> None:
        """Typed items (a test's, a benchmark's, another catalogue's), straight into the columns."""
        items = list(items)
        if items:
            self._grow(page_of_items(items))

    def _grow(self, page: Page) -> None:
        if not set(page.statuses) <= _STATUS_CODES.keys():
            raise ValueError(f"unknown status in {sorted(set(page.statuses) - _STATUS_CODES.keys(), key=str)!r}")
        genre_names = list(chain.from_iterable(page.genre_lists))
        # Everything checked: the columns grow.
        first = self._count
        self._slug.extend(page.slugs)
        self._title.extend(page.titles)
        self._alts.extend(page.alts)
        self._authors.extend(page.authors)
        self._artists.extend(page.artists)
        self._tags.extend(page.tags)
        self._readings.extend(page.readings)
        self._genre_ids.extend(self._genres.ids_of(genre_names))
        ends = accumulate(map(len, page.genre_lists), initial=len(self._genre_ids) - len(genre_names))
        self._genre_ends.extend(islice(ends, 1, None))
        self._add_small_covers(first, page.covers, page.smalls, self._covers.extend(page.covers))
        self._status += bytes(map(_STATUS_CODES.__getitem__, page.statuses))
        self._latest += page.latest
        self._updated += page.updated
        self._created += page.created
        self._views += page.views
        self._chapters += page.chapters
        self._avif += page.avif or bytes(len(page.slugs))
        self._count += len(page.slugs)

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

    def __len__(self) -> int:
        return self._count

    def build(self) -> Catalogue:
        for column in (self._slug, self._title, self._alts, self._readings, self._authors, self._artists, self._tags):
            column.freeze()
        return Catalogue(self)


class Catalogue(Sequence[MangaItem]):
    """The held list, in published order; `catalogue[i]` builds item i."""

    def __init__(self, built: CatalogueBuilder) -> None:
        self._count = len(built)
        self.slugs, self.titles, self.alts = built._slug, built._title, built._alts
        self.readings_column, self.authors_column = built._readings, built._authors
        self.artists_column, self.tags_column = built._artists, built._tags
        self.genre_names: tuple[str, ...] = tuple(built._genres.names)
        self.genre_ids, self._genre_ends = built._genre_ids, built._genre_ends
        self._covers, self._small_suffix, self._small_raw = built._covers, built._small_suffix, built._small_raw
        self.status = bytes(built._status)
        self.latest, self.views, self.chapters = built._latest, built._views, built._chapters
        self.updated, self.created = built._updated, built._created
        self.avif = bytes(built._avif)
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
        return row_of(self.genre_ids, self._genre_ends, index)

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
            chapters=self.chapters[index], artists=self.artists_column.values(index),
            tags=self.tags_column.values(index), cover_avif=bool(self.avif[index]),
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
        texts = (self.slugs, self.titles, self.alts, self.readings_column, self.authors_column, self.artists_column,
                 self.tags_column)
        return (sum(a.itemsize * len(a) for a in arrays) + sum(t.nbytes() for t in texts) + self._covers.nbytes()
                + len(self.status) + len(self.avif) + sum(100 + len(v) for v in self._small_raw.values()))
