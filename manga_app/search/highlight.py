"""Which part of a title (or alias, or reading) a query matched, mapped back
from folded keys to the original text. Pure module."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from manga_app.search.normalize import fold, fold_with_map, script_runs, term_variants

Segment = tuple[str, bool]  # (text, is_match)


@functools.lru_cache(maxsize=256)
def _needles(terms: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """What the terms match as (whole words; their script runs, when a
    word mixes scripts), each with its term_variants. Cached: a page of
    cards asks this for every title, alias and reading it shows."""
    whole = frozenset(variant for term in terms for variant in term_variants(term))
    mixed = any(len(script_runs(term)) > 1 for term in terms)
    runs = frozenset(variant for term in terms for run in script_runs(term) for variant in term_variants(run))
    return whole, runs if mixed else frozenset()


# Titles, aliases and readings of the series on a page of results; the
# popular ones come back page after page.
_folded = functools.lru_cache(maxsize=4096)(fold)


def match_spans(text: str, terms: Sequence[str]) -> list[tuple[int, int]]:
    """Merged spans of `text` matched by any of the folded `terms` (or, as
    the index does when whole terms find nothing, by their script runs)."""
    whole, runs = _needles(tuple(terms))
    folded = _folded(text)
    for needles in (whole, runs):
        if any(needle in folded for needle in needles):
            key, origins = fold_with_map(text, folded)  # folded once, not again
            return _spans(key, origins, needles)
    return []  # the common case for aliases and readings: no mapping needed


def _spans(key: str, origins: list[tuple[int, int]], needles: frozenset[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for term in needles:
        start = key.find(term) if term else -1
        while start != -1:
            spans.append((origins[start][0], origins[start + len(term) - 1][1]))
            start = key.find(term, start + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def segments(text: str, terms: Sequence[str]) -> list[Segment]:
    """`text` cut into plain and matched pieces, in order."""
    pieces: list[Segment] = []
    cursor = 0
    for start, end in match_spans(text, terms):
        if start > cursor:
            pieces.append((text[cursor:start], False))
        pieces.append((text[start:end], True))
        cursor = end
    if cursor < len(text) or not pieces:
        pieces.append((text[cursor:], False))
    return pieces


def best_alternative(alternatives: Sequence[str], terms: Sequence[str]) -> str:
    """The first alias or reading that shows a match, for when the title does not."""
    return next((text for text in alternatives if match_spans(text, terms)), "")
