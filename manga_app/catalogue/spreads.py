"""Which pages pair in double-page view: the chapter's spread offset,
worked out from where its wide (spread) pages fall. Pure: no framework or
database imports; the importer stores the result per chapter, the publisher
puts it in the chapter's manifest, the reader uses it as its default.

The reader pairs pages two by two; a wide page is a spread shown alone, and
the page after it starts a new pair. With the offset on, the first page is
shown alone (a cover) and pairs start at the second page.

In print a spread fills two facing pages, so it starts a pair. Counting a
wide scan as the two pages it was printed on, a spread at an even printed
position fits pairs that start with the first page (no offset), one at an
odd position fits pairs after a single cover (offset). Each spread votes;
the majority wins, a tie goes to the first spread (the one the reader's
pairing depends on most: pairing restarts after every spread, so only the
pages before the first one are shifted by the offset)."""

from __future__ import annotations

from collections.abc import Iterable

# No spread, no evidence: the reader's own default (reader_model.DEFAULT_SETTINGS
# "offset"), pairs starting with the first page.
WITHOUT_SPREADS = False


def is_spread(width: int, height: int) -> bool:
    """Wider than tall, as the reader tells a spread (assets/js/reader/layout.js isWide)."""
    return width > height


def spread_offset(sizes: Iterable[tuple[int, int]]) -> bool:
    """True when the first page should stand alone so that the chapter's
    spreads start pairs, from its pages' (width, height) in reading order."""
    votes: list[bool] = []
    printed = 0  # the printed position of the page at hand
    for width, height in sizes:
        if is_spread(width, height):
            votes.append(printed % 2 == 1)
            printed += 2
        else:
            printed += 1
    if not votes:
        return WITHOUT_SPREADS
    for_offset = sum(votes)
    if for_offset * 2 == len(votes):
        return votes[0]
    return for_offset * 2 > len(votes)
