"""Column primitives of the held catalogue (compact.py): many short strings
as one string, repeated strings by id, and content-hashed URLs as their hash.
Pure module."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate, islice
from operator import add, methodcaller

# Separates the values of a multi-valued field inside its column.
SEP = "\x1f"
RAW = 0xFFFF  # "not a hashed URL": the text is kept whole
SAME = 0xFFFE  # the small cover is the cover itself


class TextColumn:
    """Many short strings as one string and end offsets."""

    __slots__ = ("parts", "ends", "text", "_length")

    def __init__(self) -> None:
        self.parts: list[str] | None = []
        self.ends = array("I")
        self.text = ""
        self._length = 0

    def extend(self, values: list[str]) -> None:
        self.parts.append("".join(values))
        self.ends.extend(islice(accumulate(map(len, values), initial=self._length), 1, None))
        self._length = self.ends[-1] if self.ends else 0

    def freeze(self) -> None:
        self.text = "".join(self.parts)
        self.parts = None

    def __getitem__(self, index: int) -> str:
        return self.text[self.ends[index - 1] if index else 0 : self.ends[index]]

    def values(self, index: int) -> tuple[str, ...]:
        joined = self[index]
        return tuple(joined.split(SEP)) if joined else ()

    def nbytes(self) -> int:
        return str_bytes(self.text) + self.ends.itemsize * len(self.ends)


def row_of(values: array, ends: array, index: int) -> array:
    """Row `index` of a ragged column: its values run from the last row's end
    to its own (a series' genre ids, in the catalogue and the board's copy)."""
    return values[ends[index - 1] if index else 0 : ends[index]]


def str_bytes(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) * (4 if max(text) > "\uffff" else 2)


class Interned:
    """Repeated strings (genre names, URL prefixes) stored once, by id."""

    __slots__ = ("names", "ids")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.ids: dict[str, int] = {}

    def ids_of(self, names: Iterable[str]) -> Iterator[int]:
        names = list(names)
        for name in dict.fromkeys(names):
            if name not in self.ids:
                self.ids[name] = len(self.names)
                self.names.append(name)
        return map(self.ids.__getitem__, names)


def split_urls(urls: list[str]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """(prefixes, hashes, suffixes) when every URL is `.../<hex hash>-<suffix>`
    (what the publisher writes), else None. String methods mapped over the
    page, not a regular expression per URL: this runs for every series."""
    if not urls:
        return None
    folders, slashes, names = zip(*map(methodcaller("rpartition", "/"), urls))
    hashes, dashes, rests = zip(*map(methodcaller("partition", "-"), names))
    lengths = set(map(len, hashes))
    joined = "".join(hashes)
    if "" in dashes or min(lengths) < 32 or any(length % 2 for length in lengths):
        return None
    # Lower-case hex only, so the URL is rebuilt exactly (fromhex also takes
    # upper case, and skips whitespace: the length check catches that).
    if not joined.isascii() or any(letter in joined for letter in "ABCDEF"):
        return None
    try:
        if len(bytes.fromhex(joined)) * 2 != len(joined):
            return None
    except ValueError:
        return None
    return tuple(map(add, folders, slashes)), hashes, tuple(map(add, dashes, rests))


class UrlColumn:
    """Cover URLs: (prefix id, hash bytes, suffix id); anything else kept whole."""

    __slots__ = ("parts", "prefix", "suffix", "hashes", "ends")

    def __init__(self, parts: Interned) -> None:
        self.parts = parts
        self.prefix = array("H")
        self.suffix = array("H")
        # The hash's bytes, or a URL of another shape as UTF-8.
        self.hashes = bytearray()
        self.ends = array("I")

    def extend(self, urls: list[str]) -> tuple[tuple, tuple, tuple]:
        """Add a page's URLs; returns their (prefixes, hashes, suffixes), with
        None where a URL is not content-hashed (kept whole)."""
        split = split_urls(urls)
        if split is None:  # some URL of another shape (or none): one by one
            parts = [split_urls([url]) for url in urls]
            split = tuple(zip(*((p[0][0], p[1][0], p[2][0]) if p else (None, None, None) for p in parts)))
        if len(self.parts.names) + 2 * len(urls) >= SAME:
            split = ((None,) * len(urls),) * 3  # too many distinct prefixes: keep URLs whole
        prefixes, hashes, suffixes = split
        if None not in prefixes:
            self.prefix.extend(self.parts.ids_of(prefixes))
            self.suffix.extend(self.parts.ids_of(suffixes))
            start = len(self.hashes)
            self.hashes += bytes.fromhex("".join(hashes))
            self.ends.extend(islice(accumulate((len(h) // 2 for h in hashes), initial=start), 1, None))
            return split
        for url, prefix, key, suffix in zip(urls, prefixes, hashes, suffixes):
            if prefix is None:
                self.prefix.append(RAW)
                self.suffix.append(RAW)
                self.hashes += url.encode()
            else:
                self.prefix.extend(self.parts.ids_of([prefix]))
                self.suffix.extend(self.parts.ids_of([suffix]))
                self.hashes += bytes.fromhex(key)
            self.ends.append(len(self.hashes))
        return split

    def url(self, index: int, suffix: int | None = None) -> str:
        prefix = self.prefix[index]
        start = self.ends[index - 1] if index else 0
        if prefix == RAW:
            return self.hashes[start : self.ends[index]].decode()
        names = self.parts.names
        return f"{names[prefix]}{self.hashes[start : self.ends[index]].hex()}{names[self.suffix[index] if suffix is None else suffix]}"

    def nbytes(self) -> int:
        arrays = (self.prefix, self.suffix, self.ends)
        return len(self.hashes) + sum(a.itemsize * len(a) for a in arrays)
