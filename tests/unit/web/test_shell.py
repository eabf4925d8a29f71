"""Table-driven tests for manga_app.web.shell: which built file serves a page,
and the rewrite of its prerendered <head>."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from manga_app.web import shell

CHARSET = '<meta charSet="utf-8"/>'
VIEWPORT = '<meta content="width=device-width, initial-scale=1" name="viewport"/>'
THEME_COLOR = '<meta content="#f8413b" name="theme-color"/>'
MANIFEST = '<link href="/manifest.json" rel="manifest"/>'
MODULEPRELOAD = '<link rel="modulepreload" href="/assets/a.js"/>'

# What React prerenders from the initial state: the tags the server replaces.
OLD_MANAGED = {
    "title": "<title>Old</title>",
    "description": '<meta content="old desc" name="description"/>',
    "og-image": '<meta content="" property="og:image"/>',
    "og-title": '<meta content="Old" property="og:title"/>',
    "og-url": '<meta content="" property="og:url"/>',
    "robots": '<meta content="noindex, nofollow" name="robots"/>',
    "twitter-card": '<meta content="summary_large_image" name="twitter:card"/>',
    "canonical": '<link href="x" rel="canonical"/>',
}
OLD_MANAGED_TAGS = list(OLD_MANAGED.values())
KEPT = {
    "viewport": VIEWPORT,
    "theme-color": THEME_COLOR,
    "manifest": MANIFEST,
    "modulepreload": MODULEPRELOAD,
}

BODY = (
    '<body><div id="root"><h1>Old page</h1></div>'
    '<script type="module">import("/assets/a.js")</script></body>'
)


def prerendered_html(label: str = "page") -> str:
    return (
        '<!DOCTYPE html><html lang="ja"><head>'
        + CHARSET
        + VIEWPORT
        + OLD_MANAGED_TAGS[0]
        + "".join(OLD_MANAGED_TAGS[1:5])
        + THEME_COLOR
        + "".join(OLD_MANAGED_TAGS[5:])
        + MANIFEST
        + MODULEPRELOAD
        + f"</head>{BODY.replace('Old page', label)}</html>"
    )


NEW_HEAD = (
    "<title>New | 漫画ひろば</title>"
    '<meta name="description" content="new desc" data-ssr-head="">'
    '<link rel="canonical" href="https://manga.example.jp/genres" data-ssr-head="">'
)


@pytest.fixture
def static_root(tmp_path: Path) -> Path:
    root = tmp_path / "client"
    (root / "genres").mkdir(parents=True)
    (root / "index.html").write_text(prerendered_html("home"), encoding="utf-8")
    (root / "genres" / "index.html").write_text(prerendered_html("genres"), encoding="utf-8")
    (root / "search.html").write_text(prerendered_html("search"), encoding="utf-8")
    (root / shell.SPA_FALLBACK).write_text(prerendered_html("fallback"), encoding="utf-8")
    (root / "404.html").write_text(prerendered_html("not found"), encoding="utf-8")
    return root


# --------------------------------------------------------------------------
# render_shell
# --------------------------------------------------------------------------


def head_section(html: str) -> str:
    found = re.search(r"<head[^>]*>(.*?)</head>", html, re.DOTALL)
    assert found, "no <head> in the rendered shell"
    return found.group(1)


SHELL_NAMES = [
    pytest.param("index.html", id="root"),
    pytest.param("genres/index.html", id="nested"),
    pytest.param(shell.SPA_FALLBACK, id="spa-fallback"),
    pytest.param("404.html", id="not-found"),
]


@pytest.mark.parametrize("name", SHELL_NAMES)
@pytest.mark.parametrize("old_tag", [pytest.param(tag, id=name) for name, tag in OLD_MANAGED.items()])
def test_every_prerendered_managed_tag_is_removed(static_root, name, old_tag):
    html = shell.render_shell(static_root / name, NEW_HEAD)
    assert old_tag not in html


@pytest.mark.parametrize("name", SHELL_NAMES)
@pytest.mark.parametrize("kept_tag", [pytest.param(tag, id=name) for name, tag in KEPT.items()])
def test_head_tags_the_server_does_not_manage_are_kept(static_root, name, kept_tag):
    html = shell.render_shell(static_root / name, NEW_HEAD)
    assert html.count(kept_tag) == 1
    assert kept_tag in head_section(html)


@pytest.mark.parametrize("name", SHELL_NAMES)
def test_the_new_head_goes_right_after_the_charset(static_root, name):
    html = shell.render_shell(static_root / name, NEW_HEAD)
    head = head_section(html)
    assert head.startswith(CHARSET + NEW_HEAD)
    assert html.count("<title>") == 1
    assert html.count("<title>New | 漫画ひろば</title>") == 1


@pytest.mark.parametrize("name", SHELL_NAMES)
def test_the_rest_of_the_document_is_unchanged(static_root, name):
    original = (static_root / name).read_text(encoding="utf-8")
    html = shell.render_shell(static_root / name, NEW_HEAD)
    assert html.startswith('<!DOCTYPE html><html lang="ja"><head>' + CHARSET)
    assert html.endswith(original[original.index("</head>"):])
    # Only the managed tags left and the new head came in.
    removed = sum(len(tag) for tag in OLD_MANAGED_TAGS)
    assert len(html) == len(original) - removed + len(NEW_HEAD)


def test_an_empty_head_html_only_strips_the_managed_tags(static_root):
    html = shell.render_shell(static_root / "index.html", "")
    assert "<title>" not in html
    assert head_section(html) == CHARSET + VIEWPORT + THEME_COLOR + MANIFEST + MODULEPRELOAD


def test_a_multiline_title_is_removed_too(tmp_path):
    file = tmp_path / "index.html"
    file.write_text(
        f"<!DOCTYPE html><html><head>{CHARSET}<title>Old\nsecond line</title>{VIEWPORT}</head>"
        "<body></body></html>",
        encoding="utf-8",
    )
    html = shell.render_shell(file, NEW_HEAD)
    assert "second line" not in html
    assert head_section(html) == CHARSET + NEW_HEAD + VIEWPORT


LOWER_CHARSET = '<meta charset="utf-8">'
HAND_WRITTEN_SHELL_CASES = [
    # (head before the managed tags, document ending, expected head section)
    pytest.param("", "</html>", NEW_HEAD + VIEWPORT, id="no-charset"),
    pytest.param("", "</html>\n", NEW_HEAD + VIEWPORT, id="no-charset-trailing-newline"),
    pytest.param(LOWER_CHARSET, "</html>", LOWER_CHARSET + NEW_HEAD + VIEWPORT, id="lowercase-charset"),
    pytest.param(
        LOWER_CHARSET,
        "</html>\n",
        LOWER_CHARSET + NEW_HEAD + VIEWPORT,
        id="lowercase-charset-trailing-newline",
    ),
]


@pytest.mark.parametrize(("charset", "ending", "expected_head"), HAND_WRITTEN_SHELL_CASES)
def test_a_shell_without_a_react_charset_still_gets_the_head_inside_head(
    tmp_path, charset, ending, expected_head
):
    # e.g. a hand-written 404.html: the head goes after the charset if there is one, else right after <head>.
    file = tmp_path / "index.html"
    file.write_text(
        f"<!DOCTYPE html><html><head>{charset}<title>Old</title>{VIEWPORT}</head><body></body>{ending}",
        encoding="utf-8",
    )
    html = shell.render_shell(file, NEW_HEAD)
    assert head_section(html) == expected_head
    assert html.endswith(ending)


def test_a_shell_without_a_head_is_refused(tmp_path):
    file = tmp_path / "broken.html"
    file.write_text("<!DOCTYPE html><html><body>no head</body></html>", encoding="utf-8")
    with pytest.raises(ValueError):
        shell.render_shell(file, NEW_HEAD)


@pytest.mark.parametrize("name", SHELL_NAMES)
def test_body_html_goes_first_in_the_body_and_nothing_else_moves(static_root, name):
    painted = "<reader-first-paint>page</reader-first-paint>"
    plain = shell.render_shell(static_root / name, NEW_HEAD)
    html = shell.render_shell(static_root / name, NEW_HEAD, body_html=painted)
    body = html.index("<body")
    assert html.index(painted) == html.index(">", body) + 1
    assert html.replace(painted, "", 1) == plain


def test_the_new_head_is_inserted_verbatim_every_call(static_root):
    file = static_root / "index.html"
    first = shell.render_shell(file, "<title>A</title>")
    second = shell.render_shell(file, "<title>B</title>")
    assert "<title>A</title>" in first and "<title>B</title>" not in first
    assert "<title>B</title>" in second and "<title>A</title>" not in second


def _rewrite_keeping_mtime(file: Path, text: str) -> None:
    stat = file.stat()
    file.write_text(text, encoding="utf-8")
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert file.stat().st_mtime_ns == stat.st_mtime_ns


def test_the_stripped_shell_is_cached_while_the_file_is_unchanged(static_root):
    file = static_root / "index.html"
    first = shell.render_shell(file, NEW_HEAD)
    # Same mtime: the cached split is reused, the new text is not read.
    _rewrite_keeping_mtime(file, prerendered_html("rebuilt"))
    assert shell.render_shell(file, NEW_HEAD) == first
    assert "rebuilt" not in shell.render_shell(file, NEW_HEAD)


def test_the_shell_is_read_again_when_its_mtime_changes(static_root):
    file = static_root / "index.html"
    first = shell.render_shell(file, NEW_HEAD)
    assert "<h1>home</h1>" in first
    _rewrite_keeping_mtime(file, prerendered_html("rebuilt"))
    stat = file.stat()
    os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    second = shell.render_shell(file, NEW_HEAD)
    assert "<h1>rebuilt</h1>" in second
    assert "<h1>home</h1>" not in second
    assert head_section(second).startswith(CHARSET + NEW_HEAD)


# React Router's start module, as the build writes it.
APP_START = (
    '<script type="module" async="">import "/assets/manifest-1.js";\n'
    'import * as route0 from "/assets/root-2.js";\n  \n'
    '  window.__reactRouterRouteModules = {"root":route0};\n\n'
    'import("/assets/entry.client-3.js");</script>'
)


# The site's stylesheet, as the build links it.
STYLES = (
    '<link as="style" href="/assets/styles-4.css" rel="preload"/>'
    '<link href="/icons/icon.svg" rel="icon" type="image/svg+xml"/>'
    '<link href="/assets/styles-4.css" rel="stylesheet" type="text/css"/>'
)


def _built_shell(tmp_path: Path, start: str = APP_START) -> Path:
    file = tmp_path / shell.SPA_FALLBACK
    file.write_text(
        f'<!DOCTYPE html><html><head>{CHARSET}<link rel="modulepreload" href="/assets/root-2.js"/>{STYLES}</head>'
        f"<body>{start}</body></html>",
        encoding="utf-8",
    )
    return file


def test_after_paint_the_app_starts_after_the_gate_with_the_same_imports_in_the_same_order(tmp_path):
    html = shell.render_shell(_built_shell(tmp_path), "", after_paint=True)
    assert "modulepreload" not in head_section(html)
    module = re.search(r"<script[^>]*>(.*?)</script>", html, re.DOTALL).group(1)
    lines = [line.strip() for line in module.splitlines() if line.strip()]
    assert lines[0] == f"await ({shell.PAINT_GATE});"
    # The module preloads left out of the head are asked for at that moment.
    assert '["/assets/root-2.js"]' in lines[1] and 'link.rel = "modulepreload"' in lines[1]
    assert lines[2:] == [
        'await import("/assets/manifest-1.js");',
        'const route0 = await import("/assets/root-2.js");',
        'window.__reactRouterRouteModules = {"root":route0};',
        'import("/assets/entry.client-3.js");',
    ]


def test_without_after_paint_the_app_starts_as_built(tmp_path):
    html = shell.render_shell(_built_shell(tmp_path), "")
    assert APP_START in html
    assert '<link rel="modulepreload" href="/assets/root-2.js"/>' in head_section(html)


def test_an_app_start_it_cannot_rewrite_is_left_as_built_with_its_preloads(tmp_path):
    odd = '<script type="module">import { a } from "/assets/a.js";\na();</script>'
    html = shell.render_shell(_built_shell(tmp_path, odd), "", after_paint=True)
    assert odd in html
    assert '<link rel="modulepreload" href="/assets/root-2.js"/>' in head_section(html)


def test_styles_after_paint_hold_the_stylesheets_back_until_the_gate_and_load_them_before_the_app(tmp_path):
    html = shell.render_shell(_built_shell(tmp_path), "", after_paint=True, styles_after_paint=True)
    head = head_section(html)
    # Neither fetched nor render-blocking: disabled, and the preload matches no media.
    assert '<link href="/assets/styles-4.css" rel="stylesheet" type="text/css" disabled="" data-after-paint=""/>' in head
    assert '<link as="style" href="/assets/styles-4.css" rel="preload" media="not all"/>' in head
    assert '<link href="/icons/icon.svg" rel="icon" type="image/svg+xml"/>' in head
    module = re.search(r"<script[^>]*>(.*?)</script>", html, re.DOTALL).group(1)
    lines = [line.strip() for line in module.splitlines() if line.strip()]
    assert lines[0] == f"await ({shell.PAINT_GATE});"
    # After the gate they load, and the app's modules run once they apply.
    assert "link[data-after-paint]" in lines[2] and 'removeAttribute("disabled")' in lines[2]
    assert lines[2].startswith("await Promise.all(")
    assert lines[3] == 'await import("/assets/manifest-1.js");'


def test_without_styles_after_paint_the_stylesheets_are_left_as_built(tmp_path):
    html = shell.render_shell(_built_shell(tmp_path), "", after_paint=True)
    assert STYLES in head_section(html)
    assert "data-after-paint" not in html


def test_stylesheets_are_never_held_back_when_the_app_start_cannot_load_them(tmp_path):
    odd = '<script type="module">import { a } from "/assets/a.js";\na();</script>'
    html = shell.render_shell(_built_shell(tmp_path, odd), "", after_paint=True, styles_after_paint=True)
    assert STYLES in head_section(html)
