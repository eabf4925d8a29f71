"""Table-driven tests for manga_app.web.middleware.is_page_path: which paths
get a page (or a 404 page) and which go on to Reflex."""

from __future__ import annotations

import pytest

from manga_app.web.middleware import is_page_path

PAGE_PATH_CASES = [
    # pages the site has
    ("root", "/", True),
    ("genres", "/genres", True),
    ("genres-trailing-slash", "/genres/", True),
    ("search", "/search", True),
    ("library", "/library", True),
    ("history", "/history", True),
    ("manga", "/manga/abc", True),
    ("genre-japanese", "/genre/%E3%83%9B%E3%83%A9%E3%83%BC", True),
    ("reader", "/abc-ch-1", True),
    ("reader-decimal", "/abc-ch-10.5", True),
    ("reader-decimal-and-slug", "/abc-ch-10.5-extra", True),
    # paths with no page: still a page path, answered by the 404 page
    ("unknown", "/no-such-thing", True),
    ("unknown-nested", "/foo/bar", True),
    ("uppercase-manga-slug", "/manga/ABC", True),
    # files and Reflex's own endpoints
    ("favicon", "/favicon.ico", False),
    ("built-asset", "/assets/x.js", False),
    ("built-asset-without-dot", "/assets/chunk", False),
    ("event-websocket", "/_event", False),
    ("event-websocket-subpath", "/_event/abc", False),
    ("upload", "/_upload", False),
    ("health", "/ping", False),
    ("icon", "/icons/a.png", False),
    ("stylesheet", "/css/site.css", False),
    ("script", "/js/analytics.jsx", False),
    ("built-file-at-root", "/favicon-extra.txt", False),
    ("built-file-nested", "/foo/bar.json", False),
    # a dotted path with no such file: the 404 page, not Reflex's shell (200)
    ("missing-file", "/no-such.txt", True),
    ("malformed-chapter-number", "/abc-ch-1.x", True),
    ("chapter-number-with-two-dots", "/abc-ch-1.5.5", True),
    ("escape-from-the-build", "/..%2Fsecret.txt", True),
    ("file-name-too-long", "/" + "a" * 5000 + ".txt", True),
    ("nul-byte", "/a%00.txt", True),
]


@pytest.fixture
def static_root(tmp_path):
    for name in ("favicon.ico", "favicon-extra.txt", "foo/bar.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    (tmp_path.parent / "secret.txt").write_text("x")
    return tmp_path


@pytest.mark.parametrize(("path", "expected"), [pytest.param(*row[1:], id=row[0]) for row in PAGE_PATH_CASES])
def test_a_path_is_a_page_path_unless_it_is_a_built_file_or_a_reflex_endpoint(path, expected, static_root):
    assert is_page_path(path, static_root=static_root) is expected
