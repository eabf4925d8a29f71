"""Table-driven tests for manga_app.web.slashes.collapsed_location: where a
path with repeated slashes is redirected, always a path on this origin."""

from __future__ import annotations

import pytest

from manga_app.web.slashes import collapsed_location

CASES = [
    ("root-only", "/", "", None),
    ("plain-page", "/manga/abc", "q=1", None),
    ("two-slashes", "//", "", "/"),
    ("three-slashes", "///x", "", "/x"),
    ("other-host-look", "//evil.example/manga/x", "", "/evil.example/manga/x"),
    ("empty-segment", "/manga//abc", "", "/manga/abc"),
    ("trailing", "/genres//", "", "/genres/"),
    ("query-kept", "//search", "q=%E3%81%82&page=2", "/search?q=%E3%81%82&page=2"),
    ("japanese-encoded", "/genre//ホラー", "", "/genre/%E3%83%9B%E3%83%A9%E3%83%BC"),
    ("backslash-encoded", "//\\evil.example", "", "/%5Cevil.example"),
    ("scheme-look", "//https://evil.example", "", "/https:/evil.example"),
]


@pytest.mark.parametrize(("path", "query", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_collapsed_location(path: str, query: str, expected: str | None) -> None:
    location = collapsed_location(path, query)
    assert location == expected
    if location is not None:
        assert location.startswith("/") and not location.startswith("//")
        assert collapsed_location(location.split("?")[0], "") is None  # never a redirect loop
