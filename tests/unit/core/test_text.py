"""core/text.py: text from outside made safe for the catalogue, XML, logs and terminals."""

from __future__ import annotations

import pytest
from lxml import etree

from manga_app.core.text import bounded, clean_block, clean_line, has_surrogate, shown, xml_safe


@pytest.mark.parametrize(("raw", "line"), [
    ("作品\x01名", "作品名"),
    ("作品\n名\t", "作品 名"),
    ("\x1b[31m赤\x07", "[31m赤"),
    ("非文字\ufffe\uffff\ufdd0", "非文字"),
    ("遠い面\U0001fffe", "遠い面"),
    ("C1\x85\x9f", "C1"),
    ("  普通の名前  ", "普通の名前"),
])
def test_a_name_keeps_no_control_or_non_character(raw, line):
    assert clean_line(raw) == line


def test_a_summary_keeps_its_line_breaks_and_tabs_in_one_convention():
    assert clean_block("一行目\r\n\t二行目\r三行目\x00\x0b\n") == "一行目\n\t二行目\n三行目"


def test_whatever_xml_safe_leaves_is_well_formed_xml():
    text = "".join(chr(code) for code in range(0, 0x110000, 7) if not 0xD800 <= code <= 0xDFFF)
    element = etree.fromstring(f"<a>{xml_safe(text).replace('&', '&amp;').replace('<', '&lt;')}</a>".encode())
    assert element.text is not None


def test_surrogates_and_controls_are_shown_as_escapes_in_one_bounded_line():
    assert has_surrogate("名\udcff") and not has_surrogate("名前")
    assert shown("壊れた\udcff\udcfe\x1b[2J\n") == "壊れた\\xff\\xfe\\x1b[2J\\x0a"
    long = bounded("x\n" * 300, 20)
    assert "\n" not in long and long.startswith("x\\x0ax\\x0a") and long.endswith("more characters]")
