"""Kana helpers for readings: script conversion, numbers read aloud, and
Hepburn romaji of hiragana. Pure module, no dictionaries.

Numbers are read as a Japanese reader says them (20 -> にじゅう, 300 ->
さんびゃく, 8000 -> はっせん, 1/2 -> にぶんのいち); a number written with a
leading zero (009) is read digit by digit. Romaji is Hepburn (shi, tsu, chi,
fu, ji; っ doubles the next consonant, っち -> tchi); long vowels are written
as spelled (とうきょう -> toukyou), search folds ou/o/oh alike.
"""

from __future__ import annotations

import functools
import re

__all__ = ["hiragana", "katakana", "number_reading", "romaji"]

_TO_HIRAGANA = str.maketrans({chr(code): chr(code - 0x60) for code in range(0x30A1, 0x30F7)})
_TO_KATAKANA = str.maketrans({chr(code): chr(code + 0x60) for code in range(0x3041, 0x3097)})
# Wave dashes written for a long vowel in kana text (ぬ〜べ〜).
_LONG_MARKS = str.maketrans({"〜": "ー", "～": "ー"})

_DIGITS = ("ぜろ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう")
# The hundreds and thousands whose sound changes (さんびゃく, はっせん).
_HUNDREDS = {1: "ひゃく", 3: "さんびゃく", 6: "ろっぴゃく", 8: "はっぴゃく"}
_THOUSANDS = {1: "せん", 3: "さんぜん", 8: "はっせん"}
_MYRIADS = ("", "まん", "おく", "ちょう")


def hiragana(text: str) -> str:
    return text.translate(_TO_HIRAGANA).translate(_LONG_MARKS)


def katakana(text: str) -> str:
    return text.translate(_TO_KATAKANA)


def _below_myriad(value: int) -> str:
    thousands, rest = divmod(value, 1000)
    hundreds, rest = divmod(rest, 100)
    tens, ones = divmod(rest, 10)
    parts = [
        _THOUSANDS.get(thousands, _DIGITS[thousands] + "せん") if thousands else "",
        _HUNDREDS.get(hundreds, _DIGITS[hundreds] + "ひゃく") if hundreds else "",
        ("" if tens == 1 else _DIGITS[tens]) + "じゅう" if tens else "",
        _DIGITS[ones] if ones else "",
    ]
    return "".join(parts)


def number_reading(digits: str) -> str:
    """The reading of a run of ASCII digits, or "" when it has none."""
    if not digits.isascii() or not digits.isdigit():
        return ""
    if len(digits) > 1 and digits[0] == "0" or len(digits) > 16:
        return "".join(_DIGITS[int(digit)] for digit in digits)
    value = int(digits)
    if value == 0:
        return _DIGITS[0]
    parts = []
    for unit in _MYRIADS:
        value, group = divmod(value, 10_000)
        if group:
            parts.append(_below_myriad(group) + unit)
        if not value:
            break
    return "".join(reversed(parts))


_ROMAJI_PAIRS = {
    "きゃ": "kya", "きゅ": "kyu", "きょ": "kyo", "しゃ": "sha", "しゅ": "shu", "しぇ": "she", "しょ": "sho",
    "ちゃ": "cha", "ちゅ": "chu", "ちぇ": "che", "ちょ": "cho", "にゃ": "nya", "にゅ": "nyu", "にょ": "nyo",
    "ひゃ": "hya", "ひゅ": "hyu", "ひょ": "hyo", "みゃ": "mya", "みゅ": "myu", "みょ": "myo",
    "りゃ": "rya", "りゅ": "ryu", "りょ": "ryo", "ぎゃ": "gya", "ぎゅ": "gyu", "ぎょ": "gyo",
    "じゃ": "ja", "じゅ": "ju", "じぇ": "je", "じょ": "jo", "ぢゃ": "ja", "ぢゅ": "ju", "ぢょ": "jo",
    "びゃ": "bya", "びゅ": "byu", "びょ": "byo", "ぴゃ": "pya", "ぴゅ": "pyu", "ぴょ": "pyo",
    "ふぁ": "fa", "ふぃ": "fi", "ふぇ": "fe", "ふぉ": "fo", "ゔぁ": "va", "ゔぃ": "vi", "ゔぇ": "ve", "ゔぉ": "vo",
    "てぃ": "ti", "でぃ": "di", "とぅ": "tu", "どぅ": "du", "うぃ": "wi", "うぇ": "we", "うぉ": "wo",
    "つぁ": "tsa", "つぇ": "tse", "つぉ": "tso", "いぇ": "ye",
}
_ROMAJI_SINGLE = dict(zip(
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわゐゑをん"
    "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽゔぁぃぅぇぉゃゅょゎ",
    ["a", "i", "u", "e", "o", "ka", "ki", "ku", "ke", "ko", "sa", "shi", "su", "se", "so",
     "ta", "chi", "tsu", "te", "to", "na", "ni", "nu", "ne", "no", "ha", "hi", "fu", "he", "ho",
     "ma", "mi", "mu", "me", "mo", "ya", "yu", "yo", "ra", "ri", "ru", "re", "ro", "wa", "i", "e", "o", "n",
     "ga", "gi", "gu", "ge", "go", "za", "ji", "zu", "ze", "zo", "da", "ji", "zu", "de", "do",
     "ba", "bi", "bu", "be", "bo", "pa", "pi", "pu", "pe", "po", "vu", "a", "i", "u", "e", "o",
     "ya", "yu", "yo", "wa"],
))
_KANA_UNIT = re.compile("|".join(sorted(_ROMAJI_PAIRS, key=len, reverse=True)) + "|[\u3041-\u3096ー]|.", re.S)


@functools.lru_cache(maxsize=65_536)
def romaji(text: str) -> str:
    """Hepburn romaji of hiragana (other characters pass through)."""
    out: list[str] = []
    double = False
    for unit in _KANA_UNIT.findall(text):
        if unit == "っ":
            double = True
            continue
        spelled = _ROMAJI_PAIRS.get(unit) or _ROMAJI_SINGLE.get(unit)
        if unit == "ー":
            spelled = next((char for char in reversed(out[-1]) if char in "aeiou"), "") if out else ""
        elif spelled is None:
            spelled = unit
        if double and spelled and spelled[0].isalpha() and spelled[0] not in "aeiou":
            spelled = ("t" if spelled.startswith("ch") else spelled[0]) + spelled
        double = False
        out.append(spelled)
    return "".join(out)
