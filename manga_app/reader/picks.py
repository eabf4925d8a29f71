"""What the end card offers after a series' last chapter: a few series by
the same author, then series sharing the most genres, then the most read,
from the held catalogue's columns. Pure module: no framework or I/O."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

SAME_AUTHOR = "同じ作者"
SAME_GENRES = "同じジャンル"
POPULAR = "人気作品"
PICKS = 4
# The most read series looked at: a later pick is seldom a better one, and
# the card is drawn for every chapter's end.
SCAN = 5000


def pick_next(catalogue, index: int, by_popularity: Iterable[int], *, limit: int = PICKS) -> list[tuple[int, str]]:
    """(catalogue id, why) of up to `limit` series to read after series `index`:
    by the same author (writer or artist) first, then by genres shared, each
    in `by_popularity` order (ids, most read first), then the most read, so a
    series of a genre of its own still leads somewhere."""
    authors = set(catalogue.authors_column.values(index))
    genres = set(catalogue.genres_of(index))
    by_author: list[int] = []
    by_genre: list[tuple[int, int, int]] = []
    popular: list[int] = []
    for position, other in enumerate(islice(by_popularity, SCAN)):
        if other == index:
            continue
        if authors & set(catalogue.authors_column.values(other)):
            by_author.append(other)
            if len(by_author) == limit:
                break
        elif shared := len(genres & set(catalogue.genres_of(other))):
            by_genre.append((-shared, position, other))
        elif len(popular) < limit:
            popular.append(other)
    picks = [(other, SAME_AUTHOR) for other in by_author]
    picks += [(other, SAME_GENRES) for _, _, other in sorted(by_genre)]
    picks += [(other, POPULAR) for other in popular]
    return picks[:limit]
