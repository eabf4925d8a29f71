"""manga_app.core.phrases: where a Japanese title or heading may break."""

from __future__ import annotations

import unicodedata

import pytest

from manga_app.core.phrases import boundaries, phrases


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("最後の晩餐はカレーで", ["最後の", "晩餐は", "カレーで"]),
        ("「ください」の検索結果", ["「ください」の", "検索結果"]),
        ("ください。", ["ください。"]),
        # Latin words and full-width Latin runs stay whole.
        ("ＳＰＹ×ＦＡＭＩＬＹ", ["ＳＰＹ×ＦＡＭＩＬＹ"]),
        ("Observation日記を書く", ["Observation日記を", "書く"]),
        ("", []),
    ],
)
def test_phrases(text, expected):
    assert phrases(text) == expected


@pytest.mark.parametrize("text", ["ＳＰＹ×ＦＡＭＩＬＹの最後の晩餐", "Observation of 最後の晩餐 ３２１ＡＢＣ", "Re:ゼロから始める異世界生活"])
def test_no_boundary_inside_a_latin_run(text):
    def latin(char: str) -> bool:
        folded = unicodedata.normalize("NFKC", char)
        return folded.isascii() and folded.isalnum()

    assert "".join(phrases(text)) == text
    for at in boundaries(text):
        assert not (latin(text[at - 1]) and latin(text[at])), (text[:at], text[at:])
