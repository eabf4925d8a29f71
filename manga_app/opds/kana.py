"""五十音 (gojūon) rows: which row of the kana table a title is filed under,
by its reading. Pure module.

The sort key is the one search's タイトル順 uses: the title's first reading
that is not Latin, else the title. Voiced and small kana file under their
plain kana (が and ぁ under か and あ)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# Row id (used in URLs) -> its label and the kana that start it.
ROWS: dict[str, tuple[str, str]] = {
    "a": ("あ行", "あいうえおゔ"),
    "ka": ("か行", "かきくけこ"),
    "sa": ("さ行", "さしすせそ"),
    "ta": ("た行", "たちつてと"),
    "na": ("な行", "なにぬねの"),
    "ha": ("は行", "はひふへほ"),
    "ma": ("ま行", "まみむめも"),
    "ya": ("や行", "やゆよ"),
    "ra": ("ら行", "らりるれろ"),
    "wa": ("わ行", "わゐゑをん"),
    "latin": ("英数字", ""),
    "other": ("その他", ""),
}
_ROW_OF = {kana: row for row, (_, kanas) in ROWS.items() for kana in kanas}
_SMALL = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")
_KATAKANA = {code: code - 0x60 for code in range(ord("ァ"), ord("ヶ") + 1)}


def sort_key(title: str, readings: Iterable[str]) -> str:
    """The title's reading (its first non-Latin reading), else the title, folded to hiragana."""
    reading = next((text for text in readings if text and not text.isascii()), "") or title
    return unicodedata.normalize("NFKC", reading).translate(_KATAKANA).casefold()


def row_of(key: str) -> str:
    """The row id of a sort key (see ROWS)."""
    first = key.lstrip()[:1]
    if not first:
        return "other"
    plain = unicodedata.normalize("NFD", first.translate(_SMALL))[0].translate(_SMALL)
    if plain in _ROW_OF:
        return _ROW_OF[plain]
    if plain.isascii() and plain.isalnum():
        return "latin"
    return "other"


def label(row: str) -> str:
    return ROWS[row][0]
