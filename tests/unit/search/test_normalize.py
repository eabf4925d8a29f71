"""Folding: every spelling a visitor might type gives the same key."""

from __future__ import annotations

import random

import pytest

from manga_app.catalogue.readings import readings_for
from manga_app.demo.catalogue_data import CATALOGUE
from manga_app.search import normalize
from manga_app.search.normalize import clean_query, fold, fold_many, fold_with_map, query_terms, term_variants


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("しんげき", "しんげき"),
        ("シンゲキ", "しんげき"),
        ("ｼﾝｹﾞｷ", "しんげき"),  # half-width kana with a separate voiced mark
        ("Ｓｈｉｎｇｅｋｉ", "shingeki"),  # full-width Latin
        ("Shingeki no Kyojin", "shingekinokyojin"),
        ("shingeki  no\tkyojin", "shingekinokyojin"),
        ("kyōjin", "kyojin"),  # macron
        ("kyoujin", "kyojin"),  # long vowel spelled out
        ("ラーメン", "らあめん"),  # a long-vowel mark is the vowel it lengthens
        ("らあめん", "らあめん"),
        ("とうきょう", "とおきよお"),  # おう = おお
        ("トーキョー", "とおきよお"),
        ("きょう", "きよお"),  # small kana
        ("ガッコウ", "がつこお"),
        ("せんせい", "せんせえ"),  # えい = ええ = えー
        ("センセー", "せんせえ"),
        ("引き出しの中の王国", "引き出しの中の王国"),
        ("ひきだしのなかのおうこく", "ひきだしのなかのおおこく"),  # the お after の stays
        ("ほしのうみ", "ほしのおみ"),
        ("Tōkyō", "tokyo"),
        ("toukyou", "tokyo"),
        ("sensei", "sense"),
        ("hoshi no umi", "hoshinomi"),
        ("星降る街の配達人・リミックス!", "星降る街の配達人りみつくす"),
        ("佐々木", "佐々木"),
        ("", ""),
        ("・！？", ""),
    ],
)
def test_fold(typed, key):
    assert fold(typed) == key


def test_fast_fold_and_mapped_fold_agree_on_random_text():
    rnd = random.Random(7)
    alphabet = "あいうえおかきくけこうおーっゃゅょアイウエオカキクケコッャュョーｱｲｳｶｷﾞﾟaeiouoxkyō・ 々_-漢ßé㍿Ａ"
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
        assert fold(text) == fold_with_map(text)[0], text
        # the shortcut for text that folds character for character maps like the full walk
        assert fold_with_map(text) == normalize._fold_with_map(text), text


def test_romaji_maps_like_the_full_walk():
    """Aliases and readings in romaji take their own shortcut (vowel runs and
    ou/ei rewrites shorten them): it must map exactly as the walk does."""
    rnd = random.Random(11)
    alphabet = "aeiouuoeiAEOUkyshtn0 -_'.~"
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 14)))
        assert fold_with_map(text) == normalize._fold_with_map(text), text


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("ｼﾝｹﾞｷ", [(0, 1), (1, 2), (2, 4), (4, 5)]),
        ("とうきょう", [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]),
        ("ラーメン", [(0, 1), (1, 2), (2, 3), (3, 4)]),
        ("kyoujin", [(0, 1), (1, 2), (2, 4), (4, 5), (5, 6), (6, 7)]),
        ("A・B", [(0, 1), (2, 3)]),
    ],
)
def test_fold_with_map_points_back_at_the_original(text, spans):
    assert fold_with_map(text)[1] == spans


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("  進撃  の\u3000巨人 ", "進撃 の 巨人"),
        ("a\x00b\x1fc", "abc"),  # control characters
        ("ab\u200bc", "abc"),  # zero-width (format) characters
        ("x\ud800y", "xy"),  # an unpaired surrogate
        ("x\ufffdy", "xy"),  # what invalid UTF-8 in a URL decodes to
        ("ｼﾝｹﾞｷ", "シンゲキ"),
        ("あ" * 10_000, "あ" * 100),
        ("\x00\x01", ""),
    ],
)
def test_clean_query(raw, cleaned):
    assert clean_query(raw) == cleaned


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("進撃 の巨人", ["進撃", "の巨人"]),
        ("shingeki shingeki", ["shingeki"]),
        ("・ 、", []),
        ("", []),
    ],
)
def test_query_terms(query, terms):
    assert query_terms(query) == terms


def matches(query: str, text: str) -> bool:
    """What the index does for one word: some variant of it is in the text's key."""
    key = fold(text)
    return any(variant in key for variant in term_variants(fold(query)))


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        # a long vowel spelled any way, on either side
        ("おうこく", "ひきだしのなかのおうこく"),
        ("オウコク", "ひきだしのなかのおうこく"),
        ("おーこく", "ひきだしのなかのおうこく"),
        ("おおこく", "ひきだしのなかのおうこく"),
        ("おうこく", "ヒキダシノナカノオーコク"),
        ("おうじさま", "ほしのおうじさま"),
        ("おおかみ", "もりのおおかみ"),
        ("とーきょー", "とうきょう"),
        ("とうきょう", "トーキョーグール"),
        ("せんせー", "がっこうのせんせい"),
        ("えいが", "まちのええが"),
        # a vowel that starts a word right after an o-/e-row kana
        ("うみ", "ほしのうみ"),
        ("いちご", "ひめいちご"),
        ("umi", "hoshi no umi"),
        ("oukoku", "hikidashi no naka no oukoku"),
        ("okoku", "hikidashi no naka no oukoku"),
        ("ichigo", "hime ichigo"),
        ("tokyo", "toukyou"),
        ("kyojin", "Shingeki no Kyoujin"),
        ("ｼﾝｹﾞｷ", "しんげきのきょじん"),
    ],
)
def test_long_vowels_match_however_they_are_spelled(typed, text):
    assert matches(typed, text)


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        ("こま", "こうま"),  # a real vowel is not dropped
        ("ほしのみ", "ほしのうみ"),
        ("なかのこく", "なかのおうこく"),
        ("あめ", "あさめし"),
    ],
)
def test_real_vowels_are_not_eaten(typed, text):
    assert not matches(typed, text)


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        # a kanji word finds the title written in kana (its reading)
        ("猫", "ねこまちびより ねこまちひより"),
        ("三月", "さんがつのらいおん"),
        ("3月", "さんがつのらいおん"),
        ("灯台守", "とうだいもりとわたりどり"),
        ("甘味処", "ゆきみよこちょうのあまみどころ"),  # the dictionary's second reading
        # kunrei-shiki romaji finds the Hepburn the index holds
        ("sangatu", "sangatsu no raion"),
        ("syoujo", "shoujo"),
        ("tyuugakusei", "chuugakusei"),
        ("zyuken", "juken"),
        ("hukurou", "fukurou"),
        ("tizu", "chizu"),
        ("sinzyuku", "shinjuku"),
        # and Hepburn still finds itself
        ("shuumatsu", "shuumatsu"),
        ("chuu", "chuu"),
    ],
)
def test_a_query_in_any_script_or_romaji_system_finds_the_reading(typed, text):
    assert matches(typed, text)


def test_kana_and_latin_terms_and_one_kana_readings_are_not_given_readings():
    assert term_variants(fold("ねこ")) == ("ねこ",)
    assert term_variants("shingeki") == ("shingeki",)
    assert term_variants("日") == ("日",)  # ひ is in nearly every title's reading


def _demo_readings() -> list[str]:
    texts = []
    for series in CATALOGUE:
        texts += [form for form in readings_for(series.title) if form]
        texts.append(series.romaji)
    return texts


def test_every_piece_of_every_demo_reading_finds_its_reading():
    missed = [
        (piece, text)
        for text in _demo_readings()
        for start in range(len(text))
        for end in range(start + 1, len(text) + 1)
        if fold(piece := text[start:end]) and not matches(piece, text)
    ]
    assert missed == []


def test_fold_many_is_fold_of_each():
    texts = ["とうきょう", "", "a\nb", "ラーメン", "Tōkyō", "の王国"]
    assert fold_many(texts) == [fold(text) for text in texts]
