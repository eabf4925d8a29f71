"""The names the server and the browser's scripts share are declared once,
in manga_app/core/browser.py: assets/js/shared.js is generated from it, and
the server's states and rules use the Python names."""

from __future__ import annotations

from manga_app.core import browser
from manga_app.reader import rules
from manga_app.visitor.library_state import LibraryState
from manga_app.visitor.reading_state import ReadingState
from tests.unit.node import JS, ROOT, run_module


def test_the_browser_scripts_constants_are_generated_from_python() -> None:
    written = (ROOT / browser.JS_PATH).read_text(encoding="utf-8")
    assert written == browser.javascript(), "assets/js/shared.js is stale: run `python -m manga_app.core.browser`"


def test_the_scripts_read_the_values_python_declares() -> None:
    names = ", ".join(f"m.{name}" for name in browser.SHARED)
    assert run_module(JS / "shared.js", f"return [{names}];") == [getattr(browser, name) for name in browser.SHARED]


def test_the_server_uses_the_same_names() -> None:
    assert (rules.VISITOR_COOKIE, rules.SETTINGS_COOKIE, rules.FIRST_PAGE_COOKIE) == (
        browser.VISITOR_COOKIE, browser.SETTINGS_COOKIE, browser.FIRST_PAGE_COOKIE)
    assert ReadingState.__fields__["history_json"].default.name == browser.HISTORY_STORAGE_KEY
    assert LibraryState.__fields__["owner"].default.name == browser.LIBRARY_OWNER_STORAGE_KEY


def test_no_script_spells_a_shared_name_itself() -> None:
    """Only the generated module holds the values: a script imports them."""
    spelled = [
        f"{path.relative_to(ROOT)} spells {value!r}"
        for path in sorted(JS.rglob("*.js*")) if path.name != "shared.js"
        for name in browser.SHARED if isinstance(value := getattr(browser, name), str)
        if value in path.read_text(encoding="utf-8")
    ]
    assert spelled == []
