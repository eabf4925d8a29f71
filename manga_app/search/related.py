"""関連作品 of a title page, from the held catalogue's memberships: the same author's
(writer or artist) series first, most read first; then the series sharing
the most tags and genres (a shared tag counts more than a shared genre: it
is narrower), most read first among equals. Pure module.

Cheap at any catalogue size: only the author's and tags' series and the most
read few hundred of those sharing the genres are looked at, never a whole
genre, and nothing waits for the search index (memberships.py)."""

from __future__ import annotations

import heapq
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
    need = limit - len(chosen)
    if need <= 0:
        return [catalogue.item(members.by_rank[rank]) for rank in chosen[:limit]]
    scores: Counter[int] = Counter()
    for tag in item.tags:
        for rank in members.first(members.tags.get(tag, ()), _LOOKED_AT):
            scores[rank] += TAG_WEIGHT
    genres = [genre for genre in item.genres if genre in members.genres]
    if genres:
        shared_all = members.genres[genres[0]]
        for genre in genres[1:]:
            shared_all = idsets.intersect(shared_all, members.genres[genre], members.size)
        sharing_all = [rank for rank in members.first(shared_all, _LOOKED_AT) if rank not in seen]
        wanted = {number for number, name in enumerate(catalogue.genre_names) if name in genres}
        by_rank, genres_of = members.by_rank, catalogue.genres_of
        counted = set(scores)
        if len(sharing_all) < need:
            # Too few share every genre: those sharing some (each genre's most read) may place.
            for genre in genres:
                counted.update(members.genre_first(genre, _LOOKED_AT))
        # Sharing every genre scores len(genres) without counting; when `need` of them do,
        # a series sharing fewer and no tag (score < len(genres)) cannot place, and is not looked at.
        for rank in sharing_all:
            scores[rank] += len(genres)
        for rank in counted.difference(sharing_all):
            scores[rank] += sum(map(wanted.__contains__, genres_of(by_rank[rank])))
    others = heapq.nsmallest(need, (rank for rank, score in scores.items() if score and rank not in seen),
                             key=lambda r: (-scores[r], r))
    return [catalogue.item(members.by_rank[rank]) for rank in [*chosen, *others]]
