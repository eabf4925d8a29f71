"""An in-memory search index over the held catalogue. Pure module.

Series are numbered by popularity rank (0 = most viewed), so "ties by
popularity" is id order. Every series' folded keys (title, aliases,
readings and romaji; authors apart, see normalize.py) are kept in one long
string. Postings map each character and character pair to the series
containing it, as sorted arrays or, when common, as bitsets (idsets.py):
one- and two-character queries, what as-you-type sends first, are answered
from a posting alone, longer ones verify only the series under all their
pairs. Keys sorted in a table give the relevance tiers (exact, prefix) by
binary search. Result items are built from the catalogue for one page only.
"""

from __future__ import annotations

from array import array
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, filterfalse, islice, repeat
from functools import reduce
from operator import add, and_, itemgetter
from typing import Any

from manga_app.catalogue.compact import STATUSES, Catalogue, MangaItem, Ordering
from manga_app.search import idsets, ranking
from manga_app.search.normalize import fold_many, script_runs, term_variants
from manga_app.search.paging import clamp_page, page_count

SEP = "\x00"
_LATIN = 1 << 31  # a _KeyTable position in the Latin text
# More candidates than this are first narrowed by the needle's other grams
# (a bitset test, in C) before each is checked (in Python).
_NARROW_ABOVE = 256
# Words (three or more characters) whose matches are remembered, per index:
# at most a bitset each (N/8 bytes), so 256 of them stay under 4 MB.
RECENT_WORDS = 256
_EMPTY = array("I")

__all__ = ["STATUSES", "Query", "Result", "SearchIndex"]


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


def _grams(key: str) -> Iterable[str]:
    return map(add, key, key[1:])


class _Text:
    """Per-series keys in one string: series r is text[starts[r]:starts[r+1]]."""

    def __init__(self, haystacks: list[str]) -> None:
        self.text = "".join(hay + SEP for hay in haystacks)
        self.starts = array("I", [0])
        for hay in haystacks:
            self.starts.append(self.starts[-1] + len(hay) + 1)

    def __getitem__(self, rank: int) -> str:
        return self.text[self.starts[rank] : self.starts[rank + 1]]

    def having(self, needle: str, candidates: Iterable[int]) -> list[int]:
        """The candidates whose keys contain `needle` (a bounded find: no
        slice of the text is copied for the test)."""
        find, starts = self.text.find, self.starts
        return [rank for rank in candidates if find(needle, starts[rank], starts[rank + 1]) >= 0]


def _bit_ranks(digits: str) -> Iterator[int]:
    find = digits.find
    rank = find("1")
    while rank != -1:
        yield rank
        rank = find("1", rank + 1)


class _Keys:
    """Title, alias and reading keys per series, in two _Texts by script:
    Latin-only keys (romaji: one byte a character) and the rest. Looking for
    a Latin word in Latin text costs no conversion of either string, where a
    Latin needle in a kana string is widened on every test."""

    def __init__(self, per_series: list[list[str]]) -> None:
        self.latin = _Text([SEP.join(key for key in keys if key.isascii()) for keys in per_series])
        self.wide = _Text([SEP.join(key for key in keys if not key.isascii()) for keys in per_series])
        self.title_is_latin = bytes(keys[0].isascii() for keys in per_series)
        # Latin characters that occur in the other keys at all (digits, mostly):
        # a Latin word with any other character is never looked for there.
        self.latin_in_wide = frozenset(char for char in set(self.wide.text) if char.isascii())

    def __getitem__(self, rank: int) -> str:
        return self.latin[rank] + self.wide[rank]

    def keys_of(self, rank: int) -> tuple[str, tuple[str, ...]]:
        latin = [key for key in self.latin[rank][:-1].split(SEP) if key]
        wide = [key for key in self.wide[rank][:-1].split(SEP) if key]
        first, rest = (latin, wide) if self.title_is_latin[rank] else (wide, latin)
        return first[0], (*first[1:], *rest)

    def having(self, needle: str, candidates: Iterable[int]) -> list[int]:
        if not needle.isascii():
            return self.wide.having(needle, candidates)
        if not self.latin_in_wide.issuperset(needle):
            return self.latin.having(needle, candidates)
        latin, wide = self.latin, self.wide
        in_latin, latin_starts, in_wide, wide_starts = latin.text.find, latin.starts, wide.text.find, wide.starts
        return [rank for rank in candidates
                if in_latin(needle, latin_starts[rank], latin_starts[rank + 1]) >= 0
                or in_wide(needle, wide_starts[rank], wide_starts[rank + 1]) >= 0]


class _KeyTable:
    """Every key (as its position in a _Text) in key order, with its series:
    the series of the keys starting with a prefix are one slice."""

    def __init__(self, keys: _Keys, entries: list[tuple[str, int, int]], size: int) -> None:
        # entries: (key, its position, rank): a position in keys.latin's text
        # with _LATIN set, else in keys.wide's. A key followed by SEP sorts
        # before its extensions, as the slices _bound compares do.
        entries.sort(key=itemgetter(0))
        self.latin, self.wide, self.size = keys.latin.text, keys.wide.text, size
        self.positions = array("I", map(itemgetter(1), entries))
        self.ranks = array("I", map(itemgetter(2), entries))
        # Short prefixes shared by many keys are asked for all the time
        # (as-you-type): their series, as bitsets, ready.
        self._ready: dict[str, int] = {}
        dense = idsets.dense_above(size)
        keys = list(map(itemgetter(0), entries))
        for length in (1, 2):
            for prefix, members in Counter(map(itemgetter(slice(0, length)), keys)).items():
                if members > dense and len(prefix) == length:
                    self._ready[prefix] = idsets.to_bits(self.ranks[slice(*self._range(prefix))], size)

    def _key_at(self, entry: int, width: int) -> str:
        position = self.positions[entry]
        if position & _LATIN:
            position ^= _LATIN
            return self.latin[position : position + width]
        return self.wide[position : position + width]

    def _bound(self, probe: str) -> int:
        key_at, width = self._key_at, len(probe)
        low, high = 0, len(self.positions)
        while low < high:
            middle = (low + high) // 2
            if key_at(middle, width) < probe:
                low = middle + 1
            else:
                high = middle
        return low

    def _range(self, prefix: str) -> tuple[int, int]:
        return self._bound(prefix), self._bound(prefix + "\U0010ffff")

    def starting_with(self, prefix: str) -> array | int:
        """Series with a key starting with `prefix` (a bitset or unsorted ranks)."""
        ready = self._ready.get(prefix)
        if ready is not None:
            return ready
        return self.ranks[slice(*self._range(prefix))]

    def equal_to(self, key: str) -> array:
        return self.ranks[self._bound(key + SEP) : self._bound(key + "\x01")]


def _postings(lists: dict[str, list[int]], size: int) -> dict[str, array | int]:
    dense = idsets.dense_above(size)
    return {
        gram: idsets.to_bits(ranks, size) if len(ranks) > dense else array("I", ranks)
        for gram, ranks in lists.items()
        if SEP not in gram
    }


def _index_grams(hay: str, rank: int, lists: defaultdict, latin: str = "") -> None:
    """Add `rank` to the lists of every character and pair of `hay`, and
    every triple of `latin` (pairs and triples across a SEP too: _postings
    drops those). C-level maps, not a Python loop: this runs for every gram
    of every series."""
    grams = set(hay)
    grams.update(map(add, hay, hay[1:]))
    grams.update(_triples(latin))
    deque(map(list.append, map(lists.__getitem__, grams), repeat(rank)), maxlen=0)


def _triples(text: str) -> Iterable[str]:
    """Romaji has 26 letters: its pairs are in most series and narrow a
    search little (ok and ko are everywhere, okok is not), its triples do."""
    return map(add, map(add, text, text[1:]), text[2:])


def _needle_grams(needle: str) -> set[str]:
    grams = set(_grams(needle))
    if needle.isascii():
        grams.update(_triples(needle))
    return grams


class SearchIndex:
    def __init__(self, items: Iterable[MangaItem] | Catalogue) -> None:
        catalogue = items if isinstance(items, Catalogue) else Catalogue.of(items)
        self.catalogue = catalogue
        size = self.size = len(catalogue)
        titles, views = catalogue.titles, catalogue.views
        self.by_rank = array("I", sorted(range(size), key=lambda i: (-views[i], titles[i])))
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
        self.main, self.authors = _Keys(main), _Text(authors)
        main_lists: defaultdict[str, list[int]] = defaultdict(list)
        author_lists: defaultdict[str, list[int]] = defaultdict(list)
        title_entries: list[tuple[str, int, int]] = []
        other_entries: list[tuple[str, int, int]] = []
        latin_starts, wide_starts = self.main.latin.starts, self.main.wide.starts
        for rank, keys in enumerate(main):
            _index_grams(SEP.join(keys), rank, main_lists, self.main.latin[rank])
            latin, wide = latin_starts[rank] | _LATIN, wide_starts[rank]
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
                _index_grams(authors[rank], rank, author_lists)
        self.grams = _postings(main_lists, size)
        self.author_grams = _postings(author_lists, size)
        del main_lists, author_lists
        self.titles = _KeyTable(self.main, title_entries, size)
        self.others = _KeyTable(self.main, other_entries, size)
        self._genres = self._genre_sets(catalogue)
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
            ranking.TITLE: array("I", sorted(range(size), key=title_sort.__getitem__)),
        }
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

    def _genre_sets(self, catalogue: Catalogue) -> dict[str, array | int]:
        lists: defaultdict[str, list[int]] = defaultdict(list)
        names = catalogue.genre_names
        for rank, ident in enumerate(self.by_rank):
            for genre in catalogue.genres_of(ident):
                lists[names[genre]].append(rank)
        return _postings(lists, self.size)

    def __len__(self) -> int:
        return self.size

    def keys_of(self, rank: int) -> tuple[str, tuple[str, ...]]:
        """(title key, other keys) of a series, as indexed."""
        return self.main.keys_of(rank)

    # -- matching ---------------------------------------------------------

    def _needle(self, needle: str, grams: dict, text: _Text, within: array | int | None) -> array | int:
        """Series whose keys contain `needle` (only those in `within`, when given)."""
        if len(needle) <= 2 or (len(needle) == 3 and needle.isascii()):
            exact = grams.get(needle, _EMPTY)  # its own gram (Latin triples are indexed)
            return exact if within is None else idsets.intersect(exact, within, self.size)
        postings = [grams.get(gram) for gram in _needle_grams(needle)]
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

    def _verified(self, needle: str, text: _Text | _Keys, bits: int) -> array:
        """The members of `bits` whose keys contain `needle`."""
        return array("I", text.having(needle, _bit_ranks(idsets.digits(bits, self.size))))

    def _term(self, term: str, grams: dict, text: _Text | _Keys, within: array | int | None) -> array | int:
        found: array | int = _EMPTY
        for variant in term_variants(term):
            found = _union(found, self._checked(variant, grams, text, within), self.size)
        return found

    def _checked(self, needle: str, grams: dict, text: _Text | _Keys, within: array | int | None) -> array | int:
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
            in_any = _union(in_main, self._term(term, self.author_grams, self.authors, within), self.size)
            main = in_main if main is None else idsets.intersect(main, in_main, self.size)
            every = in_any if every is None else idsets.intersect(every, in_any, self.size)
        return main, every

    def _filters(self, query: Query) -> array | int | None:
        chosen: array | int | None = None
        for genre in query.genres:
            members = self._genres.get(genre, _EMPTY)
            chosen = members if chosen is None else idsets.intersect(chosen, members, self.size)
        if query.status in self._status:
            members = self._status[query.status]
            chosen = members if chosen is None else idsets.intersect(chosen, members, self.size)
        excluded = [self._genres[genre] for genre in query.exclude if genre in self._genres]
        if excluded:
            keep = ~_union_all(excluded, self.size) & ((1 << self.size) - 1)
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
            ranks = self._relevance_page(main, every, "".join(terms), skip, query.per_page)
        else:
            ranks = idsets.in_order(every, self.orders[sort], self.positions[sort], self.size, skip, query.per_page)
        items = tuple(self.catalogue.item(self.by_rank[rank]) for rank in ranks)
        return Result(items=items, total=total, page=page, pages=pages, sort=sort)

    def _relevance_page(self, main, every, joined: str, skip: int, count: int) -> list[int]:
        """ranking.tier order: exact title (or reading), title prefix, alias or
        reading prefix, other matches, then matches in an author's name only;
        popularity within a tier."""
        size = self.size
        exact = _union(self.titles.equal_to(joined), self.others.equal_to(joined), size)
        tiers = [exact, self.titles.starting_with(joined), self.others.starting_with(joined), main, every]
        if isinstance(every, int):
            placed, chosen = 0, []
            for members in tiers:
                bits = idsets.as_bits(members, size) & every & ~placed
                placed |= bits
                chosen.append(bits)
            return _page_of(chosen, size, skip, count)
        # Matches as a sorted array (a word of three or more characters): the
        # exact and prefix tiers are few; the other matches follow lazily in
        # popularity order, so a page costs what comes before it, no more.
        if isinstance(main, int):
            main = idsets.ids_of(main, size)
        placed: set[int] = set()
        head: list[int] = []
        pool = set(every)
        for members in tiers[:3]:
            found = idsets.intersect(every, members, size) if isinstance(members, int) else pool.intersection(members)
            fresh = sorted(set(found).difference(placed))
            placed.update(fresh)
            head += fresh
        rest = filterfalse(placed.__contains__, main)
        if len(main) == len(every):  # nobody found by an author's name alone
            return list(islice(chain(head, rest), skip, skip + count))
        in_keys = placed.union(main)
        by_author = filterfalse(in_keys.__contains__, every)
        return list(islice(chain(head, rest, by_author), skip, skip + count))


def _page_of(tiers: list[int], size: int, skip: int, count: int) -> list[int]:
    ranks: list[int] = []
    for bits in tiers:
        members = bits.bit_count()
        if skip >= members:
            skip -= members
            continue
        ranks += idsets.select(bits, size, skip, count - len(ranks))
        skip = 0
        if len(ranks) >= count:
            break
    return ranks


def _union(first: array | int, second: array | int, size: int) -> array | int:
    if not idsets.count(second):
        return first
    if not idsets.count(first):
        return second
    if isinstance(first, int) or isinstance(second, int):
        return idsets.as_bits(first, size) | idsets.as_bits(second, size)
    return array("I", sorted(set(first).union(second)))


def _union_all(sets: list[array | int], size: int) -> int:
    bits = 0
    for members in sets:
        bits |= idsets.as_bits(members, size)
    return bits

