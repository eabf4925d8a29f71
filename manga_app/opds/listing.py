"""What the author and 五十音 feeds list, from the held catalogue: built
once per published catalogue and process (the catalogue is swapped whole
on a publish), then read by every request. Pure module."""

from __future__ import annotations

import unicodedata
from array import array
from collections import defaultdict
from dataclasses import dataclass

from manga_app.core import gojuon


@dataclass(frozen=True)
class Listings:
    authors: tuple[tuple[str, int], ...]  # (name, series count), by name
    by_author: dict[str, array]  # name -> series ids, most viewed first
    kana_rows: dict[str, array]  # row id -> series ids, in 50音順


def build(catalogue) -> Listings:
    """`catalogue`: the held Catalogue (compact columns)."""
    views, titles = catalogue.views, catalogue.titles
    by_author: defaultdict[str, list[int]] = defaultdict(list)
    rows: defaultdict[str, list[tuple[str, int]]] = defaultdict(list)
    for ident in range(len(catalogue)):
        for name in dict.fromkeys(catalogue.authors_column.values(ident)):
            if name.strip():
                by_author[name].append(ident)
        key = gojuon.sort_key(titles[ident], catalogue.readings_column.values(ident))
        rows[gojuon.row_of(key)].append((gojuon.collation_key(key), ident))
    popular = {name: array("I", sorted(ids, key=lambda i: (-views[i], titles[i]))) for name, ids in by_author.items()}
    authors = tuple(sorted(((name, len(ids)) for name, ids in popular.items()), key=lambda pair: _name_key(pair[0])))
    kana_rows = {row: array("I", (ident for _, ident in sorted(found))) for row, found in rows.items()}
    return Listings(authors=authors, by_author=popular, kana_rows=kana_rows)


def _name_key(name: str) -> tuple[str, str]:
    return unicodedata.normalize("NFKC", name).casefold(), name


_held: tuple[object, Listings] | None = None


def listings_of(catalogue) -> Listings:
    """The listings of this catalogue (rebuilt when a new one is held)."""
    global _held
    if _held is None or _held[0] is not catalogue:
        _held = (catalogue, build(catalogue))
    return _held[1]
