"""Which series belong together in a held catalogue: each writer's or
artist's series, each tag's and each genre's, as postings of popularity
ranks (idsets), with every series' rank. Pure module.

Built once per catalogue in well under a second at 100,000 series, where
the whole search index takes tens of seconds: the title page's 関連作品
needs only this, and the search index is built on top of it (one copy of
the postings per catalogue)."""

from __future__ import annotations

from array import array
from collections import defaultdict, deque
from itertools import islice

from manga_app.read_models.compact import Catalogue
from manga_app.search import idsets
from manga_app.search.index_keys import postings


def popularity_order(catalogue: Catalogue) -> array:
    """Catalogue ids by popularity rank (0 = most viewed; ties by title)."""
    titles, views = catalogue.titles, catalogue.views
    return array("I", sorted(range(len(catalogue)), key=lambda i: (-views[i], titles[i])))


class Memberships:
    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        size = self.size = len(catalogue)
        self.by_rank = popularity_order(catalogue)
        # The inverse: a series' rank by its catalogue id.
        self.rank_of = array("I", bytes(4 * size))
        deque(map(self.rank_of.__setitem__, self.by_rank, range(size)), maxlen=0)
        self.genres = self._genre_sets()
        self.people = self._name_sets((catalogue.authors_column, catalogue.artists_column))
        self.tags = self._name_sets((catalogue.tags_column,))
        # The best ranked few of each genre, once each (genre_first).
        self._genre_first: dict[tuple[str, int], list[int]] = {}

    def first(self, members: array | int, count: int) -> list[int]:
        """The `count` best ranked members of a posting."""
        if isinstance(members, int):
            return idsets.select(members, self.size, 0, count)
        return list(islice(members, count))

    def genre_first(self, genre: str, count: int) -> list[int]:
        """first() of a genre, found once and kept: a genre is a bitset of
        thousands, and every title page asks about a few of the same few dozen."""
        key = (genre, count)
        found = self._genre_first.get(key)
        if found is None:
            found = self._genre_first[key] = self.first(self.genres.get(genre, array("I")), count)
        return found

    def _genre_sets(self) -> dict[str, array | int]:
        catalogue = self.catalogue
        lists: defaultdict[str, list[int]] = defaultdict(list)
        names = catalogue.genre_names
        for rank, ident in enumerate(self.by_rank):
            for genre in catalogue.genres_of(ident):
                lists[names[genre]].append(rank)
        return postings(lists, self.size)

    def _name_sets(self, columns) -> dict[str, array | int]:
        lists: defaultdict[str, list[int]] = defaultdict(list)
        for rank, ident in enumerate(self.by_rank):
            for name in dict.fromkeys(name for column in columns for name in column.values(ident)):
                lists[name].append(rank)
        return postings(lists, self.size)
