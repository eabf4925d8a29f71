"""The search index's keys and grams. Pure module.

Each series' folded keys live in one long string per script (KeyText,
SeriesKeys); KeyTable sorts every key for prefix and exact lookups by
binary search; postings list, per character, pair and triple of Latin
letters, the series containing it (as arrays or idsets bitsets)."""

from __future__ import annotations

import re
from array import array
from collections import Counter, defaultdict, deque
from collections.abc import Iterable
from itertools import repeat
from operator import add, itemgetter

from manga_app.search import idsets

SEP = "\x00"
_NOT_LATIN = re.compile(r"[^\x00-\x7f]+")
LATIN = 1 << 31  # a KeyTable position in the Latin text


def pairs(key: str) -> Iterable[str]:
    return map(add, key, key[1:])


class KeyText:
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


class SeriesKeys:
    """Title, alias and reading keys per series, in two _Texts by script:
    Latin-only keys (romaji: one byte a character) and the rest. Looking for
    a Latin word in Latin text costs no conversion of either string, where a
    Latin needle in a kana string is widened on every test."""

    def __init__(self, per_series: list[list[str]]) -> None:
        self.latin = KeyText([SEP.join(key for key in keys if key.isascii()) for keys in per_series])
        self.wide = KeyText([SEP.join(key for key in keys if not key.isascii()) for keys in per_series])
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


class KeyTable:
    """Every key (as its position in a KeyText) in key order, with its series:
    the series of the keys starting with a prefix are one slice."""

    def __init__(self, keys: SeriesKeys, entries: list[tuple[str, int, int]], size: int) -> None:
        # entries: (key, its position, rank): a position in keys.latin's text
        # with LATIN set, else in keys.wide's. A key followed by SEP sorts
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
        if position & LATIN:
            position ^= LATIN
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


def postings(lists: dict[str, list[int]], size: int) -> dict[str, array | int]:
    dense = idsets.dense_above(size)
    return {
        gram: idsets.to_bits(ranks, size) if len(ranks) > dense else array("I", ranks)
        for gram, ranks in lists.items()
        if SEP not in gram
    }


def index_grams(hay: str, rank: int, lists: defaultdict) -> None:
    """Add `rank` to the lists of every character and pair of `hay`, and
    every triple of its Latin runs, in any key ("deathnoteの話" too; pairs
    and triples across a SEP too: postings drops those). C-level maps and
    a regular expression, not a Python loop: this runs for every gram of
    every series."""
    grams = set(hay)
    grams.update(map(add, hay, hay[1:]))
    grams.update(triples(_NOT_LATIN.sub(SEP, hay)))
    deque(map(list.append, map(lists.__getitem__, grams), repeat(rank)), maxlen=0)


def triples(text: str) -> Iterable[str]:
    """Romaji has 26 letters: its pairs are in most series and narrow a
    search little (ok and ko are everywhere, okok is not), its triples do."""
    return map(add, map(add, text, text[1:]), text[2:])


def needle_grams(needle: str) -> set[str]:
    grams = set(pairs(needle))
    if needle.isascii():
        grams.update(triples(needle))
    return grams
