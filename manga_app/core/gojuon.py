"""五十音 (gojūon) rows: which row of the kana table a title is filed under,
by its reading, and the order of titles within a row. Pure module.

The sort key is the one search's タイトル順 uses: the title's first reading
that is not Latin, else the title. Voiced and small kana file under their
plain kana (が and ぁ under か and あ). The OPDS feeds keep Latin and other
scripts apart (`ROWS`); the site's index (`SITE_ROWS`) files both under 英数."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# Row id (used in OPDS URLs) -> its label and the kana that start it.
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
_VOICE_MARKS = dict.fromkeys(map(ord, "\u3099\u309a"))
# The site's rows, as its URLs name them (/index/か): the first kana of each
# kana row, then 英数 for titles that start with anything else.
OTHERS = "英数"
SITE_ROWS: tuple[str, ...] = (*(kanas[0] for kanas in (v[1] for v in ROWS.values()) if kanas), OTHERS)


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


def site_row(key: str) -> str:
    """The site's row (SITE_ROWS) of a sort key: か for が, 英数 for Latin and the rest."""
    kanas = ROWS[row_of(key)][1]
    return kanas[0] if kanas else OTHERS


def site_row_label(row: str) -> str:
    """あ行 for あ, 英数 for 英数."""
    return row if row == OTHERS else f"{row}行"


def collation_key(key: str) -> str:
    """The order of sort keys in 五十音順, as a kana dictionary orders them:
    voiced and small kana first compare as their plain kana (がっこう before
    かわ), then as written (かき before がき). Long vowels are compared as the
    vowel they lengthen when `key` was folded that way (search.normalize)."""
    plain = unicodedata.normalize("NFD", key.translate(_SMALL)).translate(_VOICE_MARKS)
    return f"{plain}\x00{key}"


def label(row: str) -> str:
    return ROWS[row][0]
