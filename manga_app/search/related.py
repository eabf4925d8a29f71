"""関連作品 of a title page, from the held search index: the same author's
(writer or artist) series first, most read first; then the series sharing
the most tags and genres (a shared tag counts more than a shared genre: it
is narrower), most read first among equals. Pure module.

Cheap at any catalogue size: only the author's and tags' series and the most
read few hundred of those sharing the genres are looked at, never a whole
genre."""

from __future__ import annotations

from collections import Counter

from manga_app.read_models.compact import MangaItem
from manga_app.search import idsets
from manga_app.search.index import SearchIndex

RELATED_COUNT = 12
TAG_WEIGHT = 3
# The most read series of a set looked at (a tag or genre of thousands).
_LOOKED_AT = 300


def _ranks(index: SearchIndex, members) -> list[int]:
    """A posting's ranks, most read first (rank order), at most _LOOKED_AT."""
    if isinstance(members, int):
        return idsets.select(members, index.size, 0, _LOOKED_AT)
    return list(members[:_LOOKED_AT])


def related(index: SearchIndex, slug: str, *, limit: int = RELATED_COUNT) -> list[MangaItem]:
    catalogue = index.catalogue
    ident = catalogue.find(slug)
    if ident < 0:
        return []
    rank_of = index.by_rank.index(ident)  # a C scan: no inverse array held for this
    item = catalogue.item(ident)
    chosen: list[int] = []
    seen = {rank_of}
    for name in dict.fromkeys((*item.authors, *item.artists)):
        for rank in _ranks(index, index.people.get(name, ())):
            if rank not in seen:
                seen.add(rank)
                chosen.append(rank)
    chosen.sort()
    scores: Counter[int] = Counter()
    for tag in item.tags:
        for rank in _ranks(index, index.tags.get(tag, ())):
            scores[rank] += TAG_WEIGHT
    genres = [genre for genre in item.genres if genre in index.genre_sets]
    if genres:
        shared_all = index.genre_sets[genres[0]]
        for genre in genres[1:]:
            shared_all = idsets.intersect(shared_all, index.genre_sets[genre], index.size)
        candidates = set(_ranks(index, shared_all))
        for genre in genres:
            candidates.update(_ranks(index, index.genre_sets[genre]))
        wanted = set(genres)
        names = catalogue.genre_names
        for rank in candidates | set(scores):
            other = index.by_rank[rank]
            scores[rank] += sum(names[g] in wanted for g in catalogue.genres_of(other))
    others = sorted((rank for rank, score in scores.items() if score and rank not in seen), key=lambda r: (-scores[r], r))
    return [catalogue.item(index.by_rank[rank]) for rank in [*chosen, *others][:limit]]
