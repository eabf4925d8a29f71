"""Views over a held catalogue (compact.Catalogue) that build items on access:
an ordering of its series, and the slug lookup of a snapshot."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence

from manga_app.read_models.compact import Catalogue, MangaItem


class Ordering(Sequence[MangaItem]):
    """Items of a catalogue in some order (ids in an array), built on access."""

    def __init__(self, catalogue: Catalogue, ids: Iterable[int]) -> None:
        self.catalogue = catalogue
        self.ids = ids if isinstance(ids, array) else array("I", ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.catalogue.item(i) for i in self.ids[index]]
        return self.catalogue.item(self.ids[index])

    def __iter__(self) -> Iterator[MangaItem]:
        return map(self.catalogue.item, self.ids)


class SlugIndex:
    """`by_slug` of a snapshot: a read-only mapping from slug to item."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue

    def get(self, slug: str, default: MangaItem | None = None) -> MangaItem | None:
        index = self.catalogue.find(slug) if isinstance(slug, str) else -1
        return default if index < 0 else self.catalogue.item(index)

    def __contains__(self, slug: object) -> bool:
        return isinstance(slug, str) and self.catalogue.find(slug) >= 0

    def __getitem__(self, slug: str) -> MangaItem:
        found = self.get(slug)
        if found is None:
            raise KeyError(slug)
        return found

    def __len__(self) -> int:
        return len(self.catalogue)
