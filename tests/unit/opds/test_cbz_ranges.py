"""Range headers and slicing of the CBZ stream, as tables of cases (pure)."""

from __future__ import annotations

import pytest

from manga_app.opds.cbz import Unsatisfiable, byte_range, sliced

SIZE = 1000


@pytest.mark.parametrize(("header", "expected"), [
    (None, None),
    ("", None),
    ("bytes=0-99", (0, 99)),
    ("bytes=100-", (100, 999)),
    ("bytes=-10", (990, 999)),
    ("bytes=-5000", (0, 999)),
    ("bytes=990-5000", (990, 999)),
    ("bytes=999-999", (999, 999)),
    ("bytes=50-10", None),  # last before first: malformed, the whole archive
    ("bytes=0-1,5-9", None),  # several ranges: the whole archive
    ("bytes=-", None),
    ("items=0-9", None),
    ("bytes=a-b", None),
])
def test_a_range_header_names_one_range_or_the_whole_archive(header, expected):
    assert byte_range(header, SIZE) == expected


@pytest.mark.parametrize("header", ["bytes=1000-", "bytes=5000-6000", "bytes=-0"])
def test_a_range_past_the_end_is_unsatisfiable(header):
    with pytest.raises(Unsatisfiable):
        byte_range(header, SIZE)


@pytest.mark.parametrize(("first", "last"), [(0, 0), (0, 999), (3, 3), (4, 15), (10, 19), (11, 998), (999, 999)])
def test_slicing_the_stream_gives_exactly_those_bytes(first, last):
    data = bytes(range(256)) * 4
    data = data[:SIZE]
    chunks = [data[i:i + 10] for i in range(0, SIZE, 10)]
    assert b"".join(sliced(chunks, first, last)) == data[first:last + 1]
