"""Every page kind passes the Nu Html Checker (vnu-jar, on the HTML the
server sends and the stylesheets it links) and axe-core (in Chromium after
the app has started, phone and desktop sizes): no errors, no violations of
any impact. The checkers come from tools/package.json.

Only documented false positives of the tools themselves are allowed, each
named below with its reference."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx
import pytest
from playwright.sync_api import Browser

from manga_app.core import routes

from tests.e2e.conftest import ROOT, wait_for_hydration
from tests.e2e.reader_helpers import imported_series
from tests.e2e.test_hydration import _chapter, _genre, _title

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
PAGE_KINDS = [
    "home", "genres", "genre", "author", "tag", "kana-row", "search", "search-query", "title", "reader-chapter",
    "reader-volume", "library", "history", "offline", "ranking", "calendar", "account", "notifications", "404-path",
    "404-chapter",
]
# Documented false positives of the checkers themselves: (message pattern, reference).
VNU_ALLOWED: list[tuple[str, str]] = [
    (
        "Unrecognized at-rule “@starting-style”",
        "CSS Transitions Level 2 defines it (https://drafts.csswg.org/css-transitions-2/"
        "#defining-before-change-style-the-starting-style-rule) and every current browser has it; the checker's"
        " CSS parser does not know it yet, as it did not know @layer (validator/validator#1847)",
    ),
]
AXE_ALLOWED: list[tuple[str, str]] = []


def _node_module(path: str) -> str:
    """A file of an npm package of tools/testing/ (NODE_PATH is honoured, as node does)."""
    found = subprocess.run(
        ["node", "-p", f"require.resolve({json.dumps(path)})"], cwd=ROOT / "tools/testing", capture_output=True, text=True
    )
    assert found.returncode == 0, f"{path} is not installed: run make setup-test ({found.stderr.strip()[-300:]})"
    return found.stdout.strip()


@pytest.fixture(scope="module")
def page_paths(base_url: str, server_env, tmp_path_factory) -> dict[str, str]:
    """One path of every page kind."""
    slug, chapter = _chapter(base_url)
    with_volume = imported_series(base_url, server_env, tmp_path_factory.mktemp("validators"))
    return {
        "home": "/",
        "genres": "/genres",
        "genre": f"/genre/{quote(_genre(base_url))}",
        "author": routes.author_url(_title(base_url)["authors"][0]),
        "tag": routes.tag_url(_title(base_url)["tags"][0]),
        "kana-row": "/index/" + quote("な"),
        "search": "/search",
        "search-query": "/search?q=" + quote("の"),
        "title": f"/manga/{_title(base_url)['slug']}",
        "reader-chapter": chapter,
        "reader-volume": f"/{with_volume}-ch-1-vol",
        "library": "/library",
        "history": "/history",
        "offline": "/offline",
        "ranking": "/ranking",
        "calendar": "/calendar",
        "account": "/account",
        "notifications": "/notifications",
        "404-path": "/no-such-page",
        "404-chapter": f"/{slug}-ch-999",
    }


def test_every_declared_page_kind_is_checked(page_paths: dict[str, str]) -> None:
    """The console's pages are a 404 to visitors; test_console checks them signed in as an operator."""
    checked = {found.kind for path in page_paths.values() if (found := routes.match(urlsplit(path).path))}
    declared = {kind for kind in routes.PageKind if not kind.page.console}
    assert checked == declared, declared - checked


def _vnu(files: list[Path], *, css: bool = False) -> dict[str, list[dict]]:
    """The checker's errors and warnings, by file name."""
    command = ["java", "-jar", _node_module("vnu-jar/build/dist/vnu.jar"), "--format", "json", "--stdout", "--exit-zero-always"]
    result = subprocess.run([*command, *(["--css"] if css else []), *map(str, files)],
                            capture_output=True, text=True, timeout=600)
    found: dict[str, list[dict]] = {file.name: [] for file in files}
    for message in json.loads(result.stdout)["messages"]:
        allowed = any(re.search(pattern, message.get("message", "")) for pattern, _ in VNU_ALLOWED)
        if not allowed and (message["type"] != "info" or message.get("subType") == "warning"):
            found[message["url"].rsplit("/", 1)[-1]].append(message)
    return found


def _described(messages: list[dict]) -> list[str]:
    return [f"{m['type']}{'/' + m['subType'] if m.get('subType') else ''} line {m.get('lastLine')}: {m['message']}"
            f" [{m.get('extract', '').strip()[:120]}]" for m in messages]


@pytest.fixture(scope="module")
def vnu_html(base_url: str, page_paths: dict[str, str], tmp_path_factory) -> dict[str, list[dict]]:
    folder = tmp_path_factory.mktemp("vnu-html")
    files = []
    for kind, path in page_paths.items():
        response = httpx.get(base_url + path, timeout=30)
        assert response.status_code in (200, 404), f"{kind} {path}: {response.status_code}"
        (file := folder / f"{kind}.html").write_text(response.text)
        files.append(file)
    return _vnu(files)


@pytest.mark.parametrize("kind", PAGE_KINDS)
def test_the_html_of_every_page_kind_passes_the_nu_html_checker(vnu_html, kind):
    problems = _described(vnu_html[f"{kind}.html"])
    assert not problems, "\n".join(problems)


def test_the_stylesheets_the_pages_link_pass_the_nu_css_checker(base_url, page_paths, tmp_path_factory):
    folder = tmp_path_factory.mktemp("vnu-css")
    hrefs = set()
    for path in page_paths.values():
        html = httpx.get(base_url + path, timeout=30).text
        hrefs |= set(re.findall(r'<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"', html))
        hrefs |= set(re.findall(r'<link[^>]*href="([^"]+)"[^>]*rel="stylesheet"', html))
    assert hrefs, "the pages link no stylesheet"
    files = []
    for index, href in enumerate(sorted(hrefs)):
        (file := folder / f"{index}-{href.rsplit('/', 1)[-1]}").write_text(httpx.get(base_url + href, timeout=30).text)
        files.append(file)
    found = _vnu(files, css=True)
    problems = [f"{name}: {line}" for name, messages in found.items() for line in _described(messages)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("kind", PAGE_KINDS)
def test_every_page_kind_has_no_axe_violations(browser: Browser, base_url, page_paths, kind, viewport):
    # The site's CSP (rightly) refuses the injected checker: this context bypasses it.
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale="ja-JP", bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(base_url + page_paths[kind])
        wait_for_hydration(page)
        # The visitor's auth state has arrived (the header shows ログイン), so
        # the page is checked as a first-time visitor sees it once it settles.
        page.wait_for_function("() => !document.querySelector('#sign-in-area .account-loading')")
        page.add_script_tag(path=_node_module("axe-core/axe.min.js"))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    finally:
        context.close()
    violations = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
        f" {v['nodes'][0].get('failureSummary', '')[:200]!r}"
        for v in result["violations"]
        if not any(re.search(pattern, v["id"]) for pattern, _ in AXE_ALLOWED)
    ]
    assert not violations, "\n".join(violations)
