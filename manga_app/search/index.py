"""An in-memory search index over the held catalogue. Pure module.

Series are numbered by popularity rank (0 = most viewed), so "ties by
popularity" is id order. Every series' folded keys (title, aliases,
readings and romaji; authors apart, see normalize.py) are kept in long
strings (keys.py). Postings map each character, pair and Latin triple to the
series containing it, as sorted arrays or, when common, as bitsets
(idsets.py): one- and two-character queries, what as-you-type sends first,
are answered from a posting alone, longer ones check only the series under
all their grams. Keys sorted in a table give the relevance tiers (exact,
prefix) by binary search. Result items are built for one page only.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Sequence
from functools import reduce
from operator import and_

from manga_app.core import gojuon
from manga_app.read_models.compact import STATUSES, Catalogue, MangaItem
from manga_app.read_models.orderings import Ordering
from manga_app.search import idsets, ranking
from manga_app.search.index_keys import (
    LATIN,
    SEP,
    KeyTable,
    KeyText,
    SeriesKeys,
    index_grams,
    needle_grams,
    postings,
)
from manga_app.search.memberships import Memberships
from manga_app.search.normalize import fold_many, script_runs, term_variants
from manga_app.search.paging import clamp_page, page_count
from manga_app.search.query import Query, Result
from manga_app.search.relevance import relevance_page

# More candidates than this are first narrowed by the needle's other grams
# (a bitset test, in C) before each is checked (in Python).
_NARROW_ABOVE = 256
# Words (three or more characters) whose matches are remembered, per index:
# at most a bitset each (N/8 bytes), so 256 of them stay under 4 MB.
RECENT_WORDS = 256
_EMPTY = array("I")

__all__ = ["STATUSES", "SearchIndex"]


class SearchIndex:
    def __init__(self, items: Iterable[MangaItem] | Catalogue, members: Memberships | None = None) -> None:
        """`members`: the catalogue's, when already built (memberships.py)."""
        catalogue = items if isinstance(items, Catalogue) else Catalogue.of(items)
        if members is None or members.catalogue is not catalogue:
            members = Memberships(catalogue)
        self.catalogue, self.members = catalogue, members
        size = self.size = len(catalogue)
        self.by_rank = members.by_rank
        self.items = Ordering(catalogue, self.by_rank)
        pieces, shape = self._flat_texts()
        folded = fold_many(pieces)
        main: list[list[str]] = []
        authors: list[str] = []
        title_sort: list[str] = []
        cursor = 0
        for title_count, alias_count, reading_count, author_count in shape:
            title = folded[cursor]
            aliases = folded[cursor + 1 : cursor + 1 + alias_count]
            readings = folded[cursor + 1 + alias_count : cursor + 1 + alias_count + reading_count]
            names = folded[cursor + 1 + alias_count + reading_count : cursor + title_count + alias_count + reading_count + author_count]
            cursor += title_count + alias_count + reading_count + author_count
            others = [key for key in dict.fromkeys((*aliases, *readings)) if key and key != title]
            main.append([title, *others])
            authors.append(SEP.join(dict.fromkeys(name for name in names if name)))
            # タイトル順 is 50音順: by the title's reading when it has one.
            title_sort.append(next((key for key in readings if key and not key.isascii()), "") or title)
        self.main, self.authors = SeriesKeys(main), KeyText(authors)
        main_lists: defaultdict[str, list[int]] = defaultdict(list)
        author_lists: defaultdict[str, list[int]] = defaultdict(list)
        title_entries: list[tuple[str, int, int]] = []
        other_entries: list[tuple[str, int, int]] = []
        latin_starts, wide_starts = self.main.latin.starts, self.main.wide.starts
        for rank, keys in enumerate(main):
            index_grams(SEP.join(keys), rank, main_lists)
            latin, wide = latin_starts[rank] | LATIN, wide_starts[rank]
            for number, key in enumerate(keys):
                if not key:
                    continue
                entries = other_entries if number else title_entries
                if key.isascii():
                    entries.append((key, latin, rank))
                    latin += len(key) + 1
                else:
                    entries.append((key, wide, rank))
                    wide += len(key) + 1
            if authors[rank]:
                index_grams(authors[rank], rank, author_lists)
        self.grams = postings(main_lists, size)
        self.author_grams = postings(author_lists, size)
        del main_lists, author_lists
        self.titles = KeyTable(self.main, title_entries, size)
        self.others = KeyTable(self.main, other_entries, size)
        self._genres = members.genres
        # The author and tag pages: each name's series (writers and artists alike).
        self.people, self.tags = members.people, members.tags
        status = catalogue.status
        self._status = {
            name: idsets.to_bits((rank for rank, ident in enumerate(self.by_rank) if status[ident] == code), size)
            for code, name in enumerate(STATUSES)
        }
        by_rank = self.by_rank
        updated, created = catalogue.updated, catalogue.created
        self.orders = {
            ranking.POPULAR: array("I", range(size)),
            ranking.UPDATED: array("I", sorted(range(size), key=lambda r: -updated[by_rank[r]])),
            ranking.NEWEST: array("I", sorted(range(size), key=lambda r: -created[by_rank[r]])),
            ranking.TITLE: array("I", sorted(range(size), key=lambda r: gojuon.collation_key(title_sort[r]))),
        }
        # The site's 五十音 rows (/index/{row}), by the same key as タイトル順.
        self._rows = {row: idsets.to_bits((r for r, key in enumerate(title_sort) if gojuon.site_row(key) == row), size)
                      for row in gojuon.SITE_ROWS}
        self._recent: OrderedDict[tuple[str, bool], array | int] = OrderedDict()
        self.positions: dict[str, array] = {}
        for sort, order in self.orders.items():
            position = array("I", bytes(4 * size))
            for place, rank in enumerate(order):
                position[rank] = place
            self.positions[sort] = position

    def _flat_texts(self) -> tuple[list[str], list[tuple[int, int, int, int]]]:
        catalogue = self.catalogue
        titles, alts, readings, authors = (catalogue.titles, catalogue.alts, catalogue.readings_column,
                                           catalogue.authors_column)
        pieces: list[str] = []
        shape: list[tuple[int, int, int, int]] = []
        extend = pieces.extend
        for ident in self.by_rank:
            forms = (alts.values(ident), readings.values(ident), authors.values(ident))
            pieces.append(titles[ident])
            for values in forms:
                extend(values)
            shape.append((1, *map(len, forms)))
        return pieces, shape

    def row_counts(self) -> dict[str, int]:
        """How many series each 五十音 row of the site holds (gojuon.SITE_ROWS order)."""
        return {row: idsets.count(bits) for row, bits in self._rows.items()}

    def __len__(self) -> int:
        return self.size

    @property
    def genre_sets(self) -> dict[str, array | int]:
        """Each genre's series (ranks), as a posting."""
        return self._genres

    def keys_of(self, rank: int) -> tuple[str, tuple[str, ...]]:
        """(title key, other keys) of a series, as indexed."""
        return self.main.keys_of(rank)

    # -- matching ---------------------------------------------------------

    def _needle(self, needle: str, grams: dict, text: KeyText, within: array | int | None) -> array | int:
        """Series whose keys contain `needle` (only those in `within`, when given)."""
        if len(needle) <= 2 or (len(needle) == 3 and needle.isascii()):
            exact = grams.get(needle, _EMPTY)  # its own gram (Latin triples are indexed, authors' too)
            return exact if within is None else idsets.intersect(exact, within, self.size)
        postings = [grams.get(gram) for gram in needle_grams(needle)]
        if any(posting is None for posting in postings):
            return _EMPTY
        sparse = [posting for posting in postings if not isinstance(posting, int)]
        dense = [posting for posting in postings if isinstance(posting, int)]
        bits = reduce(and_, dense) if dense else None
        if isinstance(within, int):
            bits = within if bits is None else bits & within
        candidates: Sequence[int]
        if sparse:
            candidates = min(sparse, key=len)
        elif within is not None and not isinstance(within, int):
            candidates, bits = within, bits
        else:
            return self._verified(needle, text, bits)
        if bits is not None and len(candidates) > _NARROW_ABOVE:
            candidates = idsets.intersect(candidates, bits, self.size)
        return array("I", text.having(needle, candidates))

    def _verified(self, needle: str, text: KeyText | SeriesKeys, bits: int) -> array:
        """The members of `bits` whose keys contain `needle`."""
        return array("I", text.having(needle, idsets.ids_of(bits, self.size)))

    def _term(self, term: str, grams: dict, text: KeyText | SeriesKeys, within: array | int | None) -> array | int:
        found: array | int = _EMPTY
        for variant in term_variants(term):
            found = idsets.union(found, self._checked(variant, grams, text, within), self.size)
        return found

    def _checked(self, needle: str, grams: dict, text: KeyText | SeriesKeys, within: array | int | None) -> array | int:
        """_needle, remembering the last words checked one by one. Typing
        re-sends every finished word with each later keystroke ("monogatari
        n", "monogatari no", ...), and the words visitors type repeat."""
        if len(needle) <= 2 or (len(needle) == 3 and needle.isascii()):
            return self._needle(needle, grams, text, within)  # a posting: nothing to remember
        key = (needle, text is self.main)
        found = self._recent.get(key)
        if found is not None:
            self._recent.move_to_end(key)
            return found if within is None else idsets.intersect(found, within, self.size)
        found = self._needle(needle, grams, text, within)
        if within is None:
            if len(found) > idsets.dense_above(self.size):
                found = idsets.to_bits(found, self.size)
            self._recent[key] = found
            while len(self._recent) > RECENT_WORDS:
                self._recent.popitem(last=False)
        return found

    def _matching(self, terms: Sequence[str]) -> tuple[array | int, array | int]:
        """(series matching every term in a title, alias or reading key;
        series matching every term in those keys or an author's name).

        Short terms (exact from one posting) go first, and each longer term
        only checks the series still in the running."""
        main: array | int | None = None
        every: array | int | None = None
        for term in sorted(terms, key=len):
            within = every
            in_main = self._term(term, self.grams, self.main, within)
            in_any = idsets.union(in_main, self._term(term, self.author_grams, self.authors, within), self.size)
            main = in_main if main is None else idsets.intersect(main, in_main, self.size)
            every = in_any if every is None else idsets.intersect(every, in_any, self.size)
        return main, every

    def _filters(self, query: Query) -> array | int | None:
        chosen: array | int | None = None
        for genre in query.genres:
            members = self._genres.get(genre, _EMPTY)
            chosen = members if chosen is None else idsets.intersect(chosen, members, self.size)
        for wanted, sets in ((query.author, self.people), (query.tag, self.tags)):
            if wanted:
                members = sets.get(wanted, _EMPTY)
                chosen = members if chosen is None else idsets.intersect(chosen, members, self.size)
        if query.status in self._status:
            members = self._status[query.status]
            chosen = members if chosen is None else idsets.intersect(chosen, members, self.size)
        if query.row in self._rows:
            chosen = self._rows[query.row] if chosen is None else idsets.intersect(chosen, self._rows[query.row], self.size)
        excluded = [self._genres[genre] for genre in query.exclude if genre in self._genres]
        if excluded:
            keep = ~idsets.union_all(excluded, self.size) & ((1 << self.size) - 1)
            chosen = keep if chosen is None else idsets.intersect(chosen, keep, self.size)
        return chosen

    # -- searching --------------------------------------------------------

    def search(self, query: Query, terms: Sequence[str]) -> Result:
        """Filter, rank and page. `terms` are the folded words of query.q."""
        sort = ranking.effective_sort(query.sort, bool(terms))
        chosen = self._filters(query)
        main = every = None
        if terms:
            main, every = self._matching(terms)
            if not idsets.count(every) and any(len(script_runs(term)) > 1 for term in terms):
                runs = [run for term in terms for run in script_runs(term)]
                main, every = self._matching(list(dict.fromkeys(runs)))
            if chosen is not None:
                main = idsets.intersect(main, chosen, self.size)
                every = idsets.intersect(every, chosen, self.size)
        else:
            every = chosen
        total = self.size if every is None else idsets.count(every)
        pages = page_count(total, query.per_page)
        page = clamp_page(query.page, pages)
        skip = (page - 1) * query.per_page
        if every is None:
            ranks = list(self.orders[sort][skip : skip + query.per_page])
        elif sort == ranking.RELEVANCE:
            ranks = relevance_page(self, main, every, "".join(terms), skip, query.per_page)
        else:
            ranks = idsets.in_order(every, self.orders[sort], self.positions[sort], self.size, skip, query.per_page)
        items = tuple(self.catalogue.item(self.by_rank[rank]) for rank in ranks)
        return Result(items=items, total=total, page=page, pages=pages, sort=sort)
