"""What the end card offers to read next: first the series that readers of
this one also read (reader/also_read.py counts them), then, when that
history is too thin to fill the card, a few series by the same author, then
series sharing the most genres, then the most read, from the held
catalogue's columns. Pure module: no framework or I/O."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import islice

ALSO_READ = "読者がよく読んでいる"
SAME_AUTHOR = "同じ作者"
SAME_GENRES = "同じジャンル"
POPULAR = "人気作品"
PICKS = 4
# The most read series looked at: a later pick is seldom a better one, and
# the card is drawn for every chapter's end.
SCAN = 5000


def also_read_counts(own: str, readers: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """Series slug -> how many of `readers` (reader key -> the series they
    read) read it, `own` left out. Readers of one series alone count nothing."""
    counts: dict[str, int] = {}
    for read in readers.values():
        for slug in set(read) - {own}:
            counts[slug] = counts.get(slug, 0) + 1
    return counts


def pick_next(
    catalogue, index: int, by_popularity: Iterable[int], *, limit: int = PICKS, also_read: Mapping[int, int] | None = None
) -> list[tuple[int, str]]:
    """(catalogue id, why) of up to `limit` series to read after series `index`:
    the series its readers also read (`also_read`: id -> readers shared), most
    shared first, ties to the more read; then by the same author (writer or
    artist), then by genres shared, each in `by_popularity` order (ids, most
    read first), then the most read, so a series of a genre of its own still
    leads somewhere."""
    also_read = {other: count for other, count in (also_read or {}).items() if other != index and count > 0}
    authors = set(catalogue.authors_column.values(index))
    genres = set(catalogue.genres_of(index))
    by_author: list[int] = []
    by_genre: list[tuple[int, int, int]] = []
    popular: list[int] = []
    place: dict[int, int] = {}
    wanted = limit - min(len(also_read), limit)
    for position, other in enumerate(islice(by_popularity, SCAN)):
        if other == index:
            continue
        if other in also_read:
            place[other] = position
            continue
        if len(by_author) >= wanted and len(place) == len(also_read):
            break
        if authors & set(catalogue.authors_column.values(other)):
            by_author.append(other)
        elif shared := len(genres & set(catalogue.genres_of(other))):
            by_genre.append((-shared, position, other))
        elif len(popular) < limit:
            popular.append(other)
    picks = [(other, ALSO_READ) for other in sorted(also_read, key=lambda other: (-also_read[other], place.get(other, SCAN), other))]
    picks += [(other, SAME_AUTHOR) for other in by_author]
    picks += [(other, SAME_GENRES) for _, _, other in sorted(by_genre)]
    picks += [(other, POPULAR) for other in popular]
    return picks[:limit]
