"""Table-driven tests for manga_app.ui.navigation: the visited-paths stack."""

from __future__ import annotations

import pytest

from manga_app.ui.navigation import MAX_DEPTH, ROOT, visit


def cases(table):
    return [pytest.param(*row[1:], id=row[0]) for row in table]


# --------------------------------------------------------------------------
# visit
# --------------------------------------------------------------------------

VISIT_CASES = [
    ("empty-stack-starts-at-root", [], "/genres", ["/", "/genres"]),
    ("empty-stack-visiting-root", [], "/", ["/"]),
    ("root-only-pushes", ["/"], "/manga/abc", ["/", "/manga/abc"]),
    ("new-path-pushed-last", ["/", "/genres"], "/manga/abc", ["/", "/genres", "/manga/abc"]),
    ("query-is-part-of-the-path", ["/", "/search?q=a"], "/search?q=b", ["/", "/search?q=a", "/search?q=b"]),
    ("same-path-again-keeps-stack", ["/", "/genres"], "/genres", ["/", "/genres"]),
    (
        "earlier-path-truncates-to-it",
        ["/", "/genres", "/manga/abc", "/abc-ch-1"],
        "/genres",
        ["/", "/genres"],
    ),
    (
        "middle-path-truncates-to-it",
        ["/", "/genres", "/manga/abc", "/abc-ch-1"],
        "/manga/abc",
        ["/", "/genres", "/manga/abc"],
    ),
    ("root-truncates-to-root", ["/", "/genres", "/manga/abc"], "/", ["/"]),
    ("stack-without-root-gets-root-first", ["/genres"], "/manga/abc", ["/", "/genres", "/manga/abc"]),
    ("stack-without-root-visiting-root", ["/genres", "/manga/abc"], "/", ["/"]),
    ("stack-without-root-revisit", ["/genres", "/manga/abc"], "/genres", ["/", "/genres"]),
]


@pytest.mark.parametrize(("stack", "path", "expected"), cases(VISIT_CASES))
def test_visiting_a_path_pushes_it_or_truncates_the_stack_to_it(stack, path, expected):
    assert visit(stack, path) == expected


@pytest.mark.parametrize(
    ("stack", "path"),
    [
        pytest.param(["/", "/a"], "/b", id="push"),
        pytest.param(["/", "/a", "/b"], "/a", id="truncate"),
        pytest.param(["/a"], "/b", id="root-inserted"),
    ],
)
def test_visiting_never_changes_the_caller_stack(stack, path):
    before = list(stack)
    visit(stack, path)
    assert stack == before


def _full_stack(length: int) -> list[str]:
    return [ROOT, *(f"/p{i}" for i in range(1, length))]


DEPTH_CASES = [
    ("one-below-the-cap", MAX_DEPTH - 1, MAX_DEPTH),
    ("at-the-cap", MAX_DEPTH, MAX_DEPTH),
    ("far-over-the-cap", MAX_DEPTH * 3, MAX_DEPTH),
]


@pytest.mark.parametrize(("length", "expected_length"), cases(DEPTH_CASES))
def test_a_deep_stack_is_capped_with_root_first_and_the_newest_path_last(length, expected_length):
    stack = _full_stack(length)
    result = visit(stack, "/newest")
    assert len(result) == expected_length
    assert result[0] == ROOT
    assert result[-1] == "/newest"
    # The oldest paths are the ones dropped; the order of the rest is kept.
    assert result[1:-1] == stack[len(stack) - (expected_length - 2):]


def test_the_cap_drops_the_oldest_path_after_root():
    stack = _full_stack(MAX_DEPTH)
    result = visit(stack, "/newest")
    assert "/p1" not in result
    assert result[1] == "/p2"


def test_a_capped_stack_without_root_still_starts_at_root():
    stack = [f"/p{i}" for i in range(MAX_DEPTH)]
    result = visit(stack, "/newest")
    assert len(result) == MAX_DEPTH
    assert result[0] == ROOT
    assert result[-1] == "/newest"


def test_walking_many_pages_never_exceeds_the_cap():
    stack: list[str] = []
    for i in range(MAX_DEPTH * 2):
        stack = visit(stack, f"/manga/m{i}")
        assert len(stack) <= MAX_DEPTH
        assert stack[0] == ROOT
        assert stack[-1] == f"/manga/m{i}"


# A path that is not the site's is never kept: the back control would lead
# off the site (an open redirect), http://host//evil.example/manga/x.
OFF_SITE_CASES = [
    ("protocol-relative", ["/", "/genres"], "//evil.example/manga/x", ["/", "/genres"]),
    ("backslash", ["/"], "/\\evil.example/x", ["/"]),
    ("control-character", ["/"], "/\t/evil.example", ["/"]),
    ("absolute-url", ["/"], "https://evil.example/", ["/"]),
    ("off-site-entries-already-kept-are-dropped", ["/", "//evil.example/x", "/genres"], "/search", ["/", "/genres", "/search"]),
]


@pytest.mark.parametrize(("stack", "path", "expected"), cases(OFF_SITE_CASES))
def test_visit_never_keeps_a_path_off_the_site(stack, path, expected):
    assert visit(stack, path) == expected
