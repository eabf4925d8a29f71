"""What a search box offers as the visitor types (suggestions), and near
titles for a search that found nothing. Pure module.

Suggestions are what the search itself finds for the text so far, taken
from the held index like any search: the titles of the first results in
relevance order, and the authors of those series whose name, or its
reading, holds every word typed."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from manga_app.catalogue.readings import readings_for
from manga_app.core import routes
from manga_app.search import ranking
from manga_app.search.index import SearchIndex
from manga_app.search.normalize import MAX_QUERY_CHARS, clean_query, fold, query_terms, term_variants
from manga_app.search.query import Query

SUGGESTIONS = 8
# Of those, at most this many authors (the rest are titles).
MAX_AUTHORS = 3
TITLE, AUTHOR = "title", "author"


@dataclass(frozen=True)
class Suggestion:
    kind: str  # TITLE or AUTHOR
    label: str  # the title or the name, as written
    href: str  # the title's page, or a search for the author's name

    def as_json(self) -> dict[str, str]:
        return {"kind": self.kind, "label": self.label, "href": self.href}


def suggestions(index: SearchIndex, text: str, limit: int = SUGGESTIONS) -> list[Suggestion]:
    """Up to `limit` titles and authors the search finds for `text` (what
    has been typed so far): titles in relevance order, then authors."""
    q = clean_query(text[: MAX_QUERY_CHARS * 4])
    terms = query_terms(q)
    if not terms:
        return []
    found = index.search(Query(q=q, sort=ranking.RELEVANCE, per_page=limit), terms).items
    authors = _matching_authors(found, terms)[:MAX_AUTHORS]
    titles = [Suggestion(TITLE, item.title, routes.manga_url(item.slug)) for item in found]
    return titles[: limit - len(authors)] + [Suggestion(AUTHOR, name, routes.search_url(q=name)) for name in authors]


def _matching_authors(items: Sequence[Any], terms: Sequence[str]) -> list[str]:
    names = dict.fromkeys(name for item in items for name in item.authors if name.strip())
    return [name for name in names if all(_holds(_name_keys(name), term) for term in terms)]


def _holds(keys: tuple[str, ...], term: str) -> bool:
    return any(variant in key for variant in term_variants(term) for key in keys)


@functools.lru_cache(maxsize=8192)
def _name_keys(name: str) -> tuple[str, ...]:
    """A name's search keys: as written, its reading and its romaji (folded)."""
    reading = readings_for(name, name=True)
    return tuple(dict.fromkeys(key for key in map(fold, (name, reading.hiragana, reading.romaji)) if key))


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
