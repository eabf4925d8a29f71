"""The reading generator the site used before issue 34 (fugashi + unidic-lite,
pykakasi), kept as the baseline bench_readings.py measures the current one
against, unchanged but for this line.

Kana readings and Hepburn romaji for titles, generated once at import.

Search has to find `進撃の巨人` from `しんげき`, `シンゲキ` or `shingeki`; computing
those forms at import keeps the search index a plain string match.

Readings come from a morphological analyser (MeCab through fugashi, with
the UniDic dictionary of unidic-lite), which reads words in context: 魔王城
is まおうじょう, 君と is きみと, 勤務中 is きんむちゅう, where a character-by-
character reader (pykakasi) says まおうしろ, くんと, きんむなか. Where the two
readers still disagree, pykakasi's reading is kept as the katakana form (the
search folds katakana into hiragana, so that form would otherwise repeat the
hiragana): a title read two ways is found both ways. Pure module: no
database, no I/O beyond the two readers' bundled dictionaries.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

import fugashi
import pykakasi

__all__ = ["Readings", "readings_for"]

_SPACES = re.compile(r"\s+")
_HIRAGANA = str.maketrans({chr(code): chr(code - 0x60) for code in range(0x30A1, 0x30F7)})
_KATAKANA = str.maketrans({chr(code): chr(code + 0x60) for code in range(0x3041, 0x3097)})
# Particles written with one kana and said (and typed in romaji) as another.
_PARTICLE_ROMAJI = {"は": "wa", "へ": "e", "を": "o"}
_NOT_WORDS = ("補助記号", "空白")
# Parts of a compound: a romaji word goes on across them (renkinjutsushi, taimukaado).
_COMPOUND_PARTS = ("名詞", "接尾辞", "接頭辞")


class Readings(NamedTuple):
    """The forms of one title a visitor might type."""

    hiragana: str
    katakana: str
    romaji: str


@functools.cache
def _tagger() -> fugashi.Tagger:
    # Loading a dictionary takes a moment; one of each per process is enough.
    return fugashi.Tagger()


@functools.cache
def _kakasi() -> pykakasi.kakasi:
    return pykakasi.kakasi()


def _has_kanji(text: str) -> bool:
    return any(unicodedata.name(char, "").startswith("CJK") and not "\u3000" <= char <= "\u303f" for char in text)


def _word_reading(word: fugashi.UnidicNode) -> str:
    """The word in hiragana: kana and Latin as written, kanji as read."""
    surface = word.surface
    if not _has_kanji(surface):
        return surface.translate(_HIRAGANA)
    kana = word.feature.kana
    if kana and kana != "*" and not word.is_unk:
        return kana.translate(_HIRAGANA)
    return "".join(token["hira"] for token in _kakasi().convert(surface))


def _word_romaji(word: fugashi.UnidicNode, reading: str) -> str:
    if word.surface in _PARTICLE_ROMAJI and word.feature.pos1 == "助詞":
        return _PARTICLE_ROMAJI[word.surface]
    if reading.isascii():
        return reading
    return "".join(token["hepburn"] for token in _kakasi().convert(reading))


def _is_katakana(text: str) -> bool:
    return all("\u30a0" <= char <= "\u30ff" for char in text)


def _joins_previous(word: fugashi.UnidicNode, previous: fugashi.UnidicNode | None) -> bool:
    """Whether `word` continues the previous romaji word (no space between)."""
    if previous is None or word.white_space or previous.feature.pos1 in _NOT_WORDS:
        return False
    if _is_katakana(word.surface) and _is_katakana(previous.surface):
        return True
    compound = word.feature.pos1 in _COMPOUND_PARTS and previous.feature.pos1 in _COMPOUND_PARTS
    return compound and (_has_kanji(word.surface) or word.feature.pos1 == "接尾辞") and _has_kanji(previous.surface)


def readings_for(text: str) -> Readings:
    """Return hiragana, katakana and lower-case Hepburn romaji for `text`.

    Kana forms keep the original spacing and Latin words as they are; romaji
    puts a space between words so that `shingeki no kyojin` matches word by
    word, and writes the particles は, へ, を as said (wa, e, o). NFKC first,
    so full-width Latin and half-width kana give the same result as their
    normal forms.
    """
    normal = unicodedata.normalize("NFKC", text or "").strip()
    if not normal:
        return Readings("", "", "")
    kana: list[str] = []
    romaji: list[str] = []
    previous = None
    for word in _tagger()(normal):
        reading = _word_reading(word)
        kana.append((" " if word.white_space else "") + reading)
        if word.feature.pos1 not in _NOT_WORDS:
            spoken = _word_romaji(word, reading).strip()
            if romaji and _joins_previous(word, previous):
                romaji[-1] += spoken
            else:
                romaji.append(spoken)
        previous = word
    hiragana = _squeeze("".join(kana))
    second = _squeeze("".join(token["hira"] for token in _kakasi().convert(normal)))
    alternative = second if second.replace(" ", "") != hiragana.replace(" ", "") else hiragana
    return Readings(
        hiragana=hiragana,
        katakana=alternative.translate(_KATAKANA),
        romaji=_squeeze(" ".join(romaji)).lower(),
    )


def _squeeze(text: str) -> str:
    return _SPACES.sub(" ", text).strip()
