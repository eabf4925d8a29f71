"""readings_for: kana readings and Hepburn romaji of titles (table of cases)."""

from __future__ import annotations

import pytest

from manga_app.catalogue.readings import Readings, readings_for


@pytest.mark.parametrize(
    ("text", "hiragana", "katakana", "romaji"),
    [
        ("進撃の巨人", "しんげきのきょじん", "シンゲキノキョジン", "shingeki no kyojin"),
        ("ワンピース", "わんぴーす", "ワンピース", "wanpiisu"),
        ("ONE PIECE", "ONE PIECE", "ONE PIECE", "one piece"),
        ("ﾁｪﾝｿｰﾏﾝ", "ちぇんそーまん", "チェンソーマン", "chensooman"),
        ("", "", "", ""),
    ],
)
def test_a_title_gets_hiragana_katakana_and_lower_case_romaji(text, hiragana, katakana, romaji):
    # Given a title, when its readings are generated
    readings = readings_for(text)
    # Then each form is what a visitor would type
    assert readings == Readings(hiragana=hiragana, katakana=katakana, romaji=romaji)


def test_romaji_separates_words_with_single_spaces_and_is_ascii_lower_case():
    readings = readings_for("鋼の錬金術師　ＦＵＬＬＭＥＴＡＬ")
    assert "  " not in readings.romaji
    assert readings.romaji == readings.romaji.lower()
    assert readings.romaji.startswith("kou no renkinjutsushi")
    assert readings.romaji.endswith("fullmetal")


def test_full_width_latin_is_folded_before_conversion():
    assert readings_for("ＳＰＹ×ＦＡＭＩＬＹ").romaji == readings_for("SPY×FAMILY").romaji
