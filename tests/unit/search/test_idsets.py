"""Bitsets of series ids: both ways of building one give the same set."""

from __future__ import annotations

import random
from array import array

import pytest

from manga_app.search import idsets


@pytest.mark.parametrize("count", [0, 1, 2, idsets._FEW, idsets._FEW + 1, 5_000])  # noqa: SLF001 - both sides of the switch
def test_to_bits_holds_exactly_the_ids_given(count):
    size = 100_000
    ids = random.Random(count).sample(range(size), count)
    for given in (ids, array("I", sorted(ids)), iter(ids), ids + ids[: count // 2]):  # unsorted, sorted, unsized, repeated
        bits = idsets.to_bits(given, size)
        assert idsets.ids_of(bits, size) == sorted(ids)


@pytest.mark.parametrize("ids", [[], [0], [99], [0, 1, 2], [0, 99], list(range(100)), [5, 6, 50, 98]])
def test_ids_of_lists_the_members_at_the_edges_too(ids):
    bits = sum(1 << i for i in ids)
    assert idsets.ids_of(bits, 100) == ids


def test_an_empty_catalogue_has_no_members():
    assert idsets.ids_of(0, 0) == []
