"""manga_app.ssr.csp: the pages' Content-Security-Policy."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from manga_app.ssr import csp


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_only_executed_inline_scripts_are_hashed_once_each():
    html = (
        "<head><script>start()</script><script src='/a.js'></script></head>"
        "<body><script type=\"module\">import('/b.js')</script><script type='application/json'>{\"a\":1}</script>"
        "<script type='application/ld+json'>{}</script><script>start()</script><p>x</p></body>"
    )
    assert csp.inline_script_hashes(html) == (_hash("start()"), _hash("import('/b.js')"))


def test_script_text_is_hashed_exactly_as_sent():
    text = "if (a < b && c > d) { go('&amp;'); }"
    assert csp.inline_script_hashes(f"<script>{text}</script>") == (_hash(text),)


def test_a_script_ends_where_a_browser_ends_it():
    # Case-insensitive tags, an end tag with a space, a "</scripts" that is no end,
    # a tag that only starts with "script", and an unclosed last script (never run: HTML's end-of-file rule).
    html = ("<SCRIPT>a('</scripts>')</script ><scriptx>no()</scriptx>"
            "<script\ttype='Module'>b()</Script><script id='x' src=\"/s.js\">c()</script><script>d()")
    assert csp.inline_script_hashes(html) == (_hash("a('</scripts>')"), _hash("b()"))


def test_a_page_policy_allows_its_scripts_and_nothing_inline_else():
    policy = dict(part.split(" ", 1) for part in csp.page_policy(
        ("'sha256-x'",), analytics=False, media_base_url="/media", auth_domain="manga.firebaseapp.com"
    ).split("; "))
    assert policy["script-src"].startswith("'self' 'sha256-x'")
    assert "'unsafe-inline'" not in policy["script-src"]
    # Nothing the server sends is evaluated (visitor/client_commands.py).
    assert "'unsafe-eval'" not in policy["script-src"]
    assert policy["frame-src"] == "https://manga.firebaseapp.com"
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert "googletagmanager" not in policy["script-src"]


def test_analytics_cdn_media_and_the_emulator_are_allowed_only_when_configured():
    policy = csp.page_policy(
        (), analytics=True, media_base_url="https://cdn.example/m", auth_domain="", emulator_port="9099"
    )
    assert "script-src 'self' https://apis.google.com https://www.googletagmanager.com;" in policy
    assert "https://cdn.example" in policy.split("img-src")[1].split(";")[0]
    assert "frame-src http://*:9099" in policy


# Reflex evaluates the script text of these (and of any `callback=`) with eval().
_EVALUATED = re.compile(r"\b(?:call_script|call_function)\(|\bcallback=")


def test_no_part_of_the_site_sends_a_script_to_evaluate():
    root = Path(__file__).resolve().parents[3] / "manga_app"
    found = [f"{path.relative_to(root)}:{number}" for path in sorted(root.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if _EVALUATED.search(line) and not line.lstrip().startswith("#")]
    assert found == []
