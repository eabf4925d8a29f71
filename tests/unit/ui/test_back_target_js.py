"""assets/js/back_target.js: where the back control goes, for the stack the
server keeps and the path the browser is on (run in the project's Node)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.unit.reader.test_reader_js import NODE, READER

MODULE = READER.parent / "back_target.js"

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
    source = (
        f"import {{ backTarget }} from {json.dumps(MODULE.as_uri())};\n"
        f"console.log(JSON.stringify(backTarget({json.dumps(stack)}, {json.dumps(path)})));"
    )
    done = subprocess.run([str(NODE), "--input-type=module", "-e", source], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected
