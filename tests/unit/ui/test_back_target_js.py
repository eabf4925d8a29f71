"""assets/js/back_target.js: where the back control goes, for the stack the
server keeps and the path the browser is on (run in the project's Node)."""

from __future__ import annotations

import json

import pytest

from tests.unit.node import JS, run_module

MODULE = JS / "back_target.js"

CASES = [
    # stack, the browser's path, where back goes
    (["/", "/genres"], "/genres", "/"),
    (["/", "/genres", "/manga/abc"], "/manga/abc", "/genres"),
    (["/", "/a", "/b", "/c", "/d"], "/d", "/c"),
    (["/"], "/", "/"),
    ([], "/genres", "/"),
    # Right after a navigation, before the stack has the new page: the page it came from.
    (["/", "/genres"], "/search", "/genres"),
    # Back to a page already on the stack, before the stack is cut to it: the page before it.
    (["/", "/genres", "/search"], "/genres", "/"),
]


@pytest.mark.parametrize(("stack", "path", "expected"), CASES)
def test_back_goes_to_the_page_before_the_one_the_browser_is_on(stack, path, expected):
    assert run_module(MODULE, f"return m.backTarget({json.dumps(stack)}, {json.dumps(path)});") == expected


# A path that is not the site's never comes back as a target (an open redirect):
# //evil.example/x is another site's address to a browser.
OFF_SITE = ["//evil.example/manga/x", "/\\evil.example/x", "https://evil.example/", "/\t/evil.example", "", None, 7]


@pytest.mark.parametrize("bad", OFF_SITE)
def test_back_never_leads_off_the_site(bad):
    for stack, path in (([bad], "/genres"), (["/", bad], "/genres"), (["/", bad, "/search"], "/search"), (["/", bad], bad)):
        target = run_module(MODULE, f"return m.backTarget({json.dumps(stack)}, {json.dumps(path)});")
        assert target.startswith("/") and not target.startswith("//") and "\\" not in target, (stack, path, target)
