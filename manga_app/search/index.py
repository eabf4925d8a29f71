"""An in-memory search index over the held catalogue. Pure module.

Every series gets folded keys (title, aliases, readings and romaji, see
normalize.py) joined into one haystack. An n-gram index (single characters
and pairs) maps each gram to the series containing it, as compact int
arrays; a query only verifies the series under its rarest gram, so it stays
fast on 100,000 series. Series ids are popularity ranks (0 = most viewed),
so "ties by popularity" is a plain integer sort."""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from manga_app.search import ranking
from manga_app.search.normalize import fold
from manga_app.search.paging import clamp_page, page_count

SEPARATOR = "\x00"
# A rarest gram shared by more series than this is narrowed by a second gram.
_NARROW_ABOVE = 2_000
STATUSES = ("ongoing", "completed")


class Indexable(Protocol):
    """What the index reads from a catalogue item (loader.MangaItem fits)."""

    title: str
    alt_titles: Sequence[str]
    readings: Sequence[str]
    genres: Sequence[str]
    status: str
    views: int
    updated_at: Any
    created_at: Any


@dataclass(frozen=True)
class Query:
    """What a visitor asks for, already validated (see params.py)."""

    q: str = ""
    genres: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    status: str = ""
    sort: str = ""
    page: int = 1
    per_page: int = 24


@dataclass(frozen=True)
class Result:
    items: tuple[Any, ...]  # this page's items, in order
    total: int
    page: int  # clamped to 1..pages
    pages: int
    sort: str  # the sort actually used


def _grams(key: str) -> set[str]:
    """Characters, pairs, and Latin triples: romaji has only 26 letters, so
    its pairs are too common to narrow a search alone."""
    pairs = {key[index : index + 2] for index in range(len(key) - 1)}
    triples = {key[index : index + 3] for index in range(len(key) - 2)}
    return set(key) | pairs | {triple for triple in triples if triple.isascii()}


def _title_sort_key(item: Indexable) -> str:
    """タイトル順 is 50音順: by the title's reading when it has one."""
    kana = (key for key in map(fold, item.readings) if key and not key.isascii())
    return next(kana, "") or fold(item.title)


class _PrefixTable:
    """Keys in sorted order with their series: the series of every key that
    starts with a prefix are one contiguous slice (two binary searches)."""

    def __init__(self, pairs: Iterable[tuple[str, int]]) -> None:
        ordered = sorted(pairs)
        self.keys = [key for key, _ in ordered]
        self.ids = array("i", (ident for _, ident in ordered))

    def starting_with(self, prefix: str) -> Sequence[int]:
        start = bisect_left(self.keys, prefix)
        return self.ids[start : bisect_left(self.keys, prefix + "\U0010ffff", start)]


class SearchIndex:
    def __init__(self, items: Iterable[Indexable]) -> None:
        ranked = sorted(items, key=lambda item: (-item.views, item.title))
        self.items: tuple[Indexable, ...] = tuple(ranked)
        self.title_keys: list[str] = []
        self.other_keys: list[tuple[str, ...]] = []
        self.haystacks: list[str] = []
        self.genres_of: list[frozenset[str]] = []
        postings: dict[str, list[int]] = {}
        genre_postings: dict[str, list[int]] = {}
        for ident, item in enumerate(self.items):
            title = fold(item.title)
            others = tuple(dict.fromkeys(k for k in map(fold, (*item.alt_titles, *item.readings)) if k and k != title))
            self.title_keys.append(title)
            self.other_keys.append(others)
            self.haystacks.append(SEPARATOR.join((title, *others)))
            for gram in set().union(*map(_grams, (title, *others))):
                postings.setdefault(gram, []).append(ident)
            self.genres_of.append(frozenset(item.genres))
            for genre in item.genres:
                genre_postings.setdefault(genre, []).append(ident)
        self.grams = {gram: array("i", ids) for gram, ids in postings.items()}
        # For the relevance tiers: exact titles, and every key sorted for prefix ranges.
        self.exact_titles: dict[str, list[int]] = {}
        for ident, title in enumerate(self.title_keys):
            self.exact_titles.setdefault(title, []).append(ident)
        self.title_prefixes = _PrefixTable((key, ident) for ident, key in enumerate(self.title_keys))
        self.other_prefixes = _PrefixTable((key, ident) for ident, keys in enumerate(self.other_keys) for key in keys)
        self.genre_ids = {genre: array("i", ids) for genre, ids in genre_postings.items()}
        count = len(self.items)
        orders = {
            ranking.POPULAR: range(count),
            ranking.UPDATED: sorted(range(count), key=lambda i: self.items[i].updated_at, reverse=True),
            ranking.NEWEST: sorted(range(count), key=lambda i: self.items[i].created_at, reverse=True),
            ranking.TITLE: sorted(range(count), key=lambda i: (_title_sort_key(self.items[i]), i)),
        }
        self.orders = {sort: array("i", order) for sort, order in orders.items()}
        self.positions: dict[str, array] = {}
        for sort, order in self.orders.items():
            position = array("i", bytes(4 * count))
            for rank, ident in enumerate(order):
                position[ident] = rank
            self.positions[sort] = position

    def __len__(self) -> int:
        return len(self.items)

    def _postings(self, term: str) -> list[Sequence[int]]:
        """Posting lists of the term's grams, rarest first ([()] when one is missing)."""
        grams = {term} if len(term) == 1 else _grams(term) - set(term)
        postings = [self.grams.get(gram, ()) for gram in grams]
        return sorted(postings, key=len)

    def candidates(self, term: str) -> Sequence[int]:
        """Series that may contain `term`, in id order: its rarest gram's
        series, narrowed by the next rarest when that is still many."""
        postings = self._postings(term)
        best = postings[0]
        if len(best) > _NARROW_ABOVE and len(postings) > 1:
            return sorted(set(best).intersection(postings[1]))
        return best

    def matching(self, terms: Sequence[str]) -> list[int]:
        """Ids of series whose keys contain every term, most popular first."""
        if not terms:
            return list(range(len(self.items)))
        ordered = sorted(terms, key=lambda term: len(self._postings(term)[0]))
        ids, haystacks = list(self.candidates(ordered[0])), self.haystacks
        for position, term in enumerate(ordered):
            # The driving term's posting list is exact when it is one or two characters.
            if position or len(term) > 2:
                ids = [i for i in ids if term in haystacks[i]]
        return ids

    def search(self, query: Query, terms: Sequence[str]) -> Result:
        """Filter, rank and page. `terms` are the folded words of query.q."""
        sort = ranking.effective_sort(query.sort, bool(terms))
        ids = self._filtered(terms, query, sort)
        if terms and sort == ranking.RELEVANCE:
            ids = self._by_relevance(ids, "".join(terms))
        elif terms and sort != ranking.POPULAR:
            ids.sort(key=self.positions[sort].__getitem__)
        pages = page_count(len(ids), query.per_page)
        page = clamp_page(query.page, pages)
        start = (page - 1) * query.per_page
        chosen = tuple(self.items[i] for i in ids[start : start + query.per_page])
        return Result(items=chosen, total=len(ids), page=page, pages=pages, sort=sort)

    def _by_relevance(self, ids: list[int], joined: str) -> list[int]:
        """ranking.tier order, computed with set operations on the tiers'
        members rather than per series; `ids` is in popularity order."""
        matched, placed = set(ids), set()
        ordered: list[int] = []
        tiers = (
            self.exact_titles.get(joined, ()),
            self.title_prefixes.starting_with(joined),
            self.other_prefixes.starting_with(joined),
        )
        for members in tiers:
            chosen = sorted(matched.intersection(members).difference(placed))
            ordered += chosen
            placed.update(chosen)
        return ordered + [i for i in ids if i not in placed] if placed else ids

    def _filtered(self, terms: Sequence[str], query: Query, sort: str) -> list[int]:
        include, exclude, status = frozenset(query.genres), frozenset(query.exclude), query.status
        if terms:
            base: Iterable[int] = self.matching(terms)
        elif include:
            base = min((self.genre_ids.get(genre, ()) for genre in include), key=len)
            base = sorted(base, key=self.positions[sort].__getitem__) if sort != ranking.POPULAR else base
        else:
            base = self.orders[sort]
        if not (include or exclude or status):
            return list(base)
        genres_of, items = self.genres_of, self.items
        return [
            i
            for i in base
            if include <= genres_of[i] and not (exclude & genres_of[i]) and (not status or items[i].status == status)
        ]
