"""Japanese-aware search keys: the one folding applied to titles, aliases,
readings and queries alike, so a match is a plain substring test.

Folding: NFKC (full/half width), lower case, Latin accents dropped (ō -> o),
katakana -> hiragana, small kana -> large, long-vowel marks dropped, a
repeated vowel after a kana or Latin vowel dropped (とうきょう = ときょ =
とーきょー, kyoujin = kyojin), spaces and punctuation dropped. Pure module.
"""

from __future__ import annotations

import re
import unicodedata

_SMALL_KANA = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")
_LONG_MARKS = frozenset("ー〜~")
_VOWEL_ROWS = {
    "a": "あかさたなはまやらわがざだばぱ",
    "i": "いきしちにひみりぎじぢびぴ",
    "u": "うくすつぬふむゆるぐずづぶぷゔ",
    "e": "えけせてねへめれげぜでべぺ",
    "o": "おこそとのほもよろをごぞどぼぽ",
}
_KANA_VOWEL = {kana: vowel for vowel, row in _VOWEL_ROWS.items() for kana in row}
# What a lengthened vowel is written with after a kana of each vowel.
_KANA_LENGTHENERS = {"a": "あ", "i": "い", "u": "う", "e": "えい", "o": "おう"}
# Voiced-sound marks NFKC must see together with the kana before them.
_COMBINING_KANA_MARKS = frozenset("\u3099\u309a\uff9e\uff9f")
# Control, format (zero-width), surrogate, private-use and unassigned.
_UNWANTED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
MAX_QUERY_CHARS = 100
# Cut raw input before normalising so a huge query costs nothing.
_RAW_LIMIT = MAX_QUERY_CHARS * 4


def _clusters(text: str) -> list[tuple[int, int]]:
    """Spans of one character plus the marks that combine with it."""
    spans: list[tuple[int, int]] = []
    for index, char in enumerate(text):
        if spans and (char in _COMBINING_KANA_MARKS or unicodedata.combining(char)):
            spans[-1] = (spans[-1][0], index + 1)
        else:
            spans.append((index, index + 1))
    return spans


def _base_char(char: str) -> str:
    """One NFKC character, case- and accent-folded, kana as large hiragana."""
    char = char.lower()
    if ord(char) < 0x250 and not char.isascii():
        char = unicodedata.normalize("NFD", char)[0]
    code = ord(char)
    if 0x30A1 <= code <= 0x30F6:
        char = chr(code - 0x60)
    return char.translate(_SMALL_KANA)


def _lengthens(previous: str, char: str) -> bool:
    """True when `char` only lengthens the vowel of `previous`."""
    if previous.isascii() and char.isascii():
        return char in "aeiou" and (previous == char or (previous == "o" and char == "u"))
    vowel = _KANA_VOWEL.get(previous)
    return vowel is not None and char in _KANA_LENGTHENERS[vowel]


def fold_with_map(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The search key of `text`, and for each key character the span of
    `text` it came from (for highlighting matches in the original)."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    for start, end in _clusters(text):
        for raw in unicodedata.normalize("NFKC", text[start:end]):
            for char in raw.casefold():
                char = _base_char(char)
                if char in _LONG_MARKS:
                    if spans:
                        spans[-1] = (spans[-1][0], end)
                    continue
                if not (char.isalnum() or char == "々"):
                    continue
                if out and _lengthens(out[-1], char):
                    spans[-1] = (spans[-1][0], end)
                    continue
                out.append(char)
                spans.append((start, end))
    return "".join(out), spans


def _latin_table() -> dict[int, str]:
    table = {}
    for code in range(0xC0, 0x250):
        base = unicodedata.normalize("NFD", chr(code))[0]
        if base.isascii() and base != chr(code):
            table[code] = base
    return table


# The same folding as fold_with_map, with C-level string operations: the
# index folds every title, alias and reading of the catalogue.
_FAST_TABLE = {
    **_latin_table(),
    **{code: chr(code - 0x60) for code in range(0x30A1, 0x30F7)},
    **{ord(mark): None for mark in _LONG_MARKS},
}
_SMALL_AFTER_KATAKANA = _SMALL_KANA
_NOT_KEY = re.compile(r"[^\w々]|_")
_LENGTHENED = re.compile(
    "|".join(
        [r"o[ou]+", r"([aeiu])\1+"]
        + [f"[{_VOWEL_ROWS[vowel]}][{_KANA_LENGTHENERS[vowel]}]+" for vowel in _VOWEL_ROWS]
    )
)


def fold(text: str) -> str:
    """The search key of `text` (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text).casefold().translate(_FAST_TABLE).translate(_SMALL_AFTER_KATAKANA)
    text = _NOT_KEY.sub("", text)
    return _LENGTHENED.sub(lambda found: found.group(0)[0], text)


def clean_query(text: str, limit: int = MAX_QUERY_CHARS) -> str:
    """A visitor's query made safe: NFKC, no control, format, surrogate,
    private-use or replacement characters, single spaces, at most `limit`."""
    text = unicodedata.normalize("NFKC", str(text)[:_RAW_LIMIT])
    kept = (
        " " if char in "\t\n\r" or char.isspace() else char
        for char in text
        if char in "\t\n\r" or (unicodedata.category(char) not in _UNWANTED and char != "\ufffd")
    )
    return " ".join("".join(kept).split())[:limit].strip()


def query_terms(query: str) -> list[str]:
    """The folded words of a query; every one must match (AND)."""
    terms = (fold(word) for word in query.split())
    return list(dict.fromkeys(term for term in terms if term))
