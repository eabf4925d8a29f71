"""This browser's visitor id (the chapter view count): made by the page's own
script (assets/js/visitor.js, run in Node; test_reader_progress checks
that it is there before the app's first event) in the form the server accepts
(manga_app/reader/rules.py), kept once made, and replaced when garbled."""

from __future__ import annotations

import json

import pytest

from manga_app.reader import rules
from tests.unit.node import JS, run_module


def run_js(body: str) -> object:
    return run_module(JS / "visitor.js", body)


def test_a_browser_without_an_id_gets_one() -> None:
    cookie = run_js("const doc = {cookie: ''}; m.ensureVisitorId(doc); return doc.cookie;")
    name, _, rest = cookie.partition("=")
    made, *attributes = rest.split("; ")
    assert name == rules.VISITOR_COOKIE
    assert rules.visitor_id(made) == made and len(made) == 24
    assert attributes == ["path=/", f"max-age={rules.VISITOR_COOKIE_SECONDS}", "samesite=lax"]


def test_ids_are_random() -> None:
    made = run_js("return Array.from({length: 50}, () => m.newVisitorId());")
    assert len(set(made)) == 50 and all(rules.visitor_id(item) == item for item in made)


def test_an_id_already_there_is_kept() -> None:
    doc = {"cookie": "a=1; manga_visitor=Abc-def_ghijklmnopqrstu; b=2"}
    found = run_js(f"const doc = {json.dumps(doc)}; return [m.ensureVisitorId(doc), doc.cookie];")
    assert found == ["Abc-def_ghijklmnopqrstu", doc["cookie"]]


@pytest.mark.parametrize("garbled", ["", "short", "has spaces in it here!", "x" * 65, "<script>alert(1)</script>xxxx"])
def test_a_garbled_id_is_replaced_on_both_sides(garbled: str) -> None:
    assert rules.visitor_id(garbled) == ""
    made = run_js(f"const doc = {{cookie: {json.dumps('manga_visitor=' + garbled)}}}; return m.ensureVisitorId(doc);")
    assert made != garbled and rules.visitor_id(made) == made


def test_the_page_and_the_server_name_the_same_cookie() -> None:
    assert run_js("return [m.VISITOR_COOKIE, m.VISITOR_COOKIE_SECONDS];") == [rules.VISITOR_COOKIE, rules.VISITOR_COOKIE_SECONDS]
