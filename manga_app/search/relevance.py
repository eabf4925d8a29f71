"""One page of results in relevance order (ranking.py's tiers), from the
index's matches: bitsets paged tier by tier, or sorted arrays followed lazily
in popularity order. Pure module."""

from __future__ import annotations

from itertools import chain, filterfalse, islice
from typing import TYPE_CHECKING

from manga_app.search import idsets

if TYPE_CHECKING:
    from manga_app.search.index import SearchIndex


def relevance_page(index: SearchIndex, main, every, joined: str, skip: int, count: int) -> list[int]:
    """ranking.tier order: exact title (or reading), title prefix, alias or
    reading prefix, other matches, then matches in an author's name only;
    popularity within a tier."""
    size = index.size
    exact = idsets.union(index.titles.equal_to(joined), index.others.equal_to(joined), size)
    tiers = [exact, index.titles.starting_with(joined), index.others.starting_with(joined), main, every]
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
