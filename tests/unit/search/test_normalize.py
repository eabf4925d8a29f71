"""Folding: every spelling a visitor might type gives the same key."""

from __future__ import annotations

import random

import pytest

from manga_app.search.normalize import clean_query, fold, fold_with_map, query_terms


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
        ("ラーメン", "らめん"),  # long-vowel mark
        ("らあめん", "らめん"),
        ("とうきょう", "ときよ"),
        ("トーキョー", "ときよ"),
        ("きょう", "きよ"),  # small kana
        ("ガッコウ", "がつこ"),
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
    alphabet = "あいうえおかきくけこうおーっゃゅょアイウエオカキクケコッャュョーｱｲｳｶｷﾞﾟaeiouoxkyō・ 々_-漢"
    for _ in range(5000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12)))
        assert fold(text) == fold_with_map(text)[0], text


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("ｼﾝｹﾞｷ", [(0, 1), (1, 2), (2, 4), (4, 5)]),
        ("とうきょう", [(0, 2), (2, 3), (3, 5)]),
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
