"""kana: numbers read aloud and Hepburn romaji (tables of cases)."""

from __future__ import annotations

import pytest

from manga_app.catalogue import kana


@pytest.mark.parametrize(
    ("digits", "reading"),
    [
        ("0", "ぜろ"), ("3", "さん"), ("10", "じゅう"), ("11", "じゅういち"), ("20", "にじゅう"),
        ("100", "ひゃく"), ("300", "さんびゃく"), ("600", "ろっぴゃく"), ("800", "はっぴゃく"),
        ("1000", "せん"), ("3000", "さんぜん"), ("8000", "はっせん"), ("2024", "にせんにじゅうよん"),
        ("10000", "いちまん"), ("100000000", "いちおく"), ("009", "ぜろぜろきゅう"), ("x1", ""),
    ],
)
def test_numbers_are_read_as_said(digits, reading):
    assert kana.number_reading(digits) == reading


@pytest.mark.parametrize(
    ("hiragana", "romaji"),
    [
        ("しんげき", "shingeki"), ("つなみ", "tsunami"), ("ちず", "chizu"), ("ふじ", "fuji"),
        ("きょうと", "kyouto"), ("まっちゃ", "matcha"), ("がっこう", "gakkou"), ("らーめん", "raamen"),
        ("ちぇんそーまん", "chensooman"), ("ゔぁ", "va"), ("ABC", "ABC"),
    ],
)
def test_romaji_is_hepburn(hiragana, romaji):
    assert kana.romaji(hiragana) == romaji


def test_katakana_and_wave_dashes_become_hiragana_with_long_marks():
    assert kana.hiragana("ヌ〜ベ〜") == "ぬーべー"
    assert kana.katakana("ねこ") == "ネコ"
