"""Near titles for a search that found nothing: the series sharing the most
character pairs with the query (typos, a wrong kanji, an extra word).
Pure module."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from manga_app.search.index import SearchIndex


def near_titles(index: SearchIndex, terms: Sequence[str], limit: int = 5) -> list[Any]:
    """Up to `limit` items, most shared pairs first, then most popular.

    Only pairs held as arrays count: a pair common enough to be a bitset
    (idsets.dense_above) says nothing about nearness."""
    joined = "".join(terms)
    grams = {joined[i : i + 2] for i in range(len(joined) - 1)} or set(joined)
    scores: Counter[int] = Counter()
    for gram in grams:
        posting = index.grams.get(gram, ())
        if not isinstance(posting, int):
            scores.update(posting)
    # A single shared pair of a long query is noise, not a near title.
    needed = 1 if len(grams) <= 2 else 2
    best = sorted((rank for rank, score in scores.items() if score >= needed), key=lambda r: (-scores[r], r))
    return [index.items[rank] for rank in best[:limit]]
