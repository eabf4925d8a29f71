"""The spread offset rule: where a chapter's wide pages fall decides whether
its first page stands alone in double-page view."""

from __future__ import annotations

import pytest

from manga_app.catalogue.spreads import WITHOUT_SPREADS, is_spread, spread_offset

N = (800, 1200)  # a page
W = (1600, 1200)  # a spread


def units(sizes: list[tuple[int, int]], offset: bool) -> list[list[int]]:
    """The reader's pairing (assets/js/reader/layout.js buildUnits), to check
    that the offset chosen makes no lone page before a spread."""
    found, pending = [], None
    for index, size in enumerate(sizes):
        if is_spread(*size):
            if pending is not None:
                found.append([pending])
            pending = None
            found.append([index])
        elif index == 0 and offset:
            found.append([index])
        elif pending is None:
            pending = index
        else:
            found.append([pending, index])
            pending = None
    if pending is not None:
        found.append([pending])
    return found


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        ([], WITHOUT_SPREADS),
        ([N] * 8, WITHOUT_SPREADS),
        ([N, W, N, N], True),  # a single cover, then the spread: the cover stands alone
        ([N, N, N, W, N, N], True),
        ([N, N, W, N, N], False),  # the cover pairs with page 2, then the spread
        ([N, N, N, N, W], False),
        ([W, N, N, N], False),  # a spread first fills printed pages 1-2
        ([W, W, W], False),  # only spreads: nothing to pair
        ([W], False),
    ],
    ids=["empty", "no-spreads", "odd-after-cover", "odd-later", "even", "even-last", "spread-first", "only-spreads",
         "one-spread"],
)
def test_where_the_spreads_fall_decides_the_offset(sizes, expected):
    assert spread_offset(sizes) is expected


@pytest.mark.parametrize(
    ("sizes", "expected"),
    [
        # Printed positions 1, 4 (3 + the first spread's second page) and 7: two odd, one even.
        ([N, W, N, W, N, W], True),
        # Printed positions 2, 5, 8: one odd, two even.
        ([N, N, W, N, W, N, W], False),
        # Ties: printed positions 1 and 4, then 2 and 5: the first spread decides.
        ([N, W, N, W], True),
        ([N, N, W, N, W], False),
    ],
    ids=["majority-odd", "majority-even", "tie-first-odd", "tie-first-even"],
)
def test_spreads_that_disagree_go_by_the_majority_then_the_first(sizes, expected):
    assert spread_offset(sizes) is expected


@pytest.mark.parametrize(
    "sizes",
    [[N, W, N, N, N, N], [N, N, W, N, N], [N, N, N, N, N, W, N, N, W], [N, W, N, N, W, N, N, N, N]],
)
def test_with_the_offset_chosen_no_page_stands_alone_before_a_spread(sizes):
    offset = spread_offset(sizes)
    shown = units(sizes, offset)
    for position, unit in enumerate(shown[1:], start=1):
        if is_spread(*sizes[unit[0]]):
            before = shown[position - 1]
            assert len(before) == 2 or is_spread(*sizes[before[0]]) or before == [0], (sizes, shown)


def test_a_square_page_is_not_a_spread():
    assert not is_spread(1000, 1000) and is_spread(1001, 1000)
