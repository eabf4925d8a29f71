"""関連作品 of a title page, from the held catalogue's memberships: the same author's
(writer or artist) series first, most read first; then the series sharing
the most tags and genres (a shared tag counts more than a shared genre: it
is narrower), most read first among equals. Pure module.

Cheap at any catalogue size: only the author's and tags' series and the most
read few hundred of those sharing the genres are looked at, never a whole
genre, and nothing waits for the search index (memberships.py)."""

from __future__ import annotations

from collections import Counter

from manga_app.read_models.compact import MangaItem
from manga_app.search import idsets
from manga_app.search.memberships import Memberships

RELATED_COUNT = 12
TAG_WEIGHT = 3
# The most read series of a set looked at (a tag or genre of thousands).
_LOOKED_AT = 300


def related(members: Memberships, slug: str, *, limit: int = RELATED_COUNT) -> list[MangaItem]:
    catalogue = members.catalogue
    ident = catalogue.find(slug)
    if ident < 0:
        return []
    item = catalogue.item(ident)
    chosen: list[int] = []
    seen = {members.rank_of[ident]}
    for name in dict.fromkeys((*item.authors, *item.artists)):
        for rank in members.first(members.people.get(name, ()), _LOOKED_AT):
            if rank not in seen:
                seen.add(rank)
                chosen.append(rank)
    chosen.sort()
    scores: Counter[int] = Counter()
    for tag in item.tags:
        for rank in members.first(members.tags.get(tag, ()), _LOOKED_AT):
            scores[rank] += TAG_WEIGHT
    genres = [genre for genre in item.genres if genre in members.genres]
    if genres:
        shared_all = members.genres[genres[0]]
        for genre in genres[1:]:
            shared_all = idsets.intersect(shared_all, members.genres[genre], members.size)
        candidates = set(members.first(shared_all, _LOOKED_AT))
        for genre in genres:
            candidates.update(members.genre_first(genre, _LOOKED_AT))
        wanted = {number for number, name in enumerate(catalogue.genre_names) if name in genres}
        by_rank, genres_of = members.by_rank, catalogue.genres_of
        for rank in candidates | set(scores):
            scores[rank] += sum(map(wanted.__contains__, genres_of(by_rank[rank])))
    others = sorted((rank for rank, score in scores.items() if score and rank not in seen), key=lambda r: (-scores[r], r))
    return [catalogue.item(members.by_rank[rank]) for rank in [*chosen, *others][:limit]]
