"""Kana readings and Hepburn romaji for titles and names, generated once at
import (and for queries, so that 猫 finds ねこまち日和).

Search has to find `進撃の巨人` from `しんげき`, `シンゲキ` or `shingeki`; computing
those forms at import keeps the search index a plain string match.

Chosen by measurement (benchmarks/bench_readings.py, on the published
titles and authors of tests/data/readings/): SudachiPy with its core
dictionary reads words in context (3月 is さんがつ, 君と is きみと), and a
run of words that JMdict knows as one compound is read as the dictionary
reads it (灯台守 is とうだいもり, 甘味処 かんみどころ, 一歩 いっぽ, where the
analyser alone says とうだいまもる, あまみところ, いちほ). Numbers are read as
numbers (20 -> にじゅう), symbols are kept as written. When the dictionary
gives a compound a second reading (甘味処: あまみどころ too), the title is
read that way as well: `Readings.katakana` holds that other reading (search
folds katakana into hiragana, so a second form costs nothing when it equals
the first). Pure module: no database, no I/O beyond the dictionaries.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from typing import NamedTuple

from sudachipy import dictionary, tokenizer

from manga_app.catalogue import kana
from manga_app.catalogue.lexicon import compound_readings, is_common

__all__ = ["Readings", "reading_of", "readings_for"]

_SPACES = re.compile(r"\s+")
# Particles written with one kana and said (and typed in romaji) as another.
_PARTICLE_ROMAJI = {"は": "wa", "へ": "e", "を": "o"}
_NOT_WORDS = ("補助記号", "空白")
# Parts of a compound: a romaji word goes on across them (renkinjutsushi, taimukaado).
_COMPOUND_PARTS = ("名詞", "接尾辞", "接頭辞")
# Words that never begin or continue a written compound (JMdict's phrases
# with particles are not what a title's words are).
_NOT_COMPOUND = ("補助記号", "空白", "助詞")
# The longest run of words looked up as one compound.
_LONGEST_COMPOUND = 4
_local = threading.local()


class Readings(NamedTuple):
    """The forms of one title a visitor might type."""

    hiragana: str
    katakana: str
    romaji: str


class _Word(NamedTuple):
    surface: str
    reading: str
    pos: str
    space_before: bool
    numeral: bool = False


@functools.cache
def _dictionary() -> dictionary.Dictionary:
    return dictionary.Dictionary(dict="core")


def _tokenizer():
    # A Sudachi tokenizer is not shared between threads; the dictionary is.
    found = getattr(_local, "tokenizer", None)
    if found is None:
        found = _local.tokenizer = _dictionary().tokenizer(mode=tokenizer.Tokenizer.SplitMode.C)
    return found


_KANJI = re.compile("[\u3400-\u4dbf\u4e00-\u9fff々〆]")
_KATAKANA_WORD = re.compile("[\u30a0-\u30ff]*")


def _has_kanji(text: str) -> bool:
    return _KANJI.search(text) is not None


def _is_katakana(text: str) -> bool:
    return _KATAKANA_WORD.fullmatch(text) is not None


def _words(text: str) -> list[_Word]:
    """The analyser's words, digit runs joined and read as numbers."""
    words: list[_Word] = []
    space = False
    for morpheme in _tokenizer().tokenize(text):
        surface, pos = morpheme.surface(), morpheme.part_of_speech()[0]
        if surface.isspace():
            space = True
            continue
        if surface.isascii() and surface.isdigit() and words and words[-1].surface.isdigit() and not space:
            surface = words.pop().surface + surface
        if surface.isascii() and surface.isdigit():
            reading = kana.number_reading(surface)
        elif _has_kanji(surface) or _is_katakana(surface) or (pos != "補助記号" and not surface.isalpha()):
            # Kanji, katakana and signs said as words (% is ぱーせんと) as read.
            reading = kana.hiragana(morpheme.reading_form() or surface)
        else:
            reading = kana.hiragana(surface)
        numeral = morpheme.part_of_speech()[1] == "数詞" or surface.isdigit()
        words.append(_Word(surface, reading, pos, space, numeral))
        space = False
    return _fractions(words)


def _fractions(words: list[_Word]) -> list[_Word]:
    """1/2 is read にぶんのいち."""
    out: list[_Word] = []
    for word in words:
        if len(out) >= 2 and word.surface.isdigit() and out[-1].surface == "/" and out[-2].surface.isdigit():
            slash, top = out.pop(), out.pop()
            out.append(_Word(f"{top.surface}/{word.surface}", f"{word.reading}ぶんの{top.reading}", "名詞",
                             top.space_before))
        else:
            out.append(word)
    return out


def _compounds(words: list[_Word]) -> tuple[list[_Word], list[_Word]]:
    """Runs of words that JMdict knows as one compound, merged into one word
    read as the dictionary reads it; and the same words read the second way
    the dictionary gives, when it gives one."""
    first: list[_Word] = []
    second: list[_Word] = []
    # Only words that can be part of a written compound start or continue one.
    joinable = [word.pos not in _NOT_COMPOUND and not word.surface.isascii() for word in words]
    kanji = [_has_kanji(word.surface) for word in words]
    start = 0
    while start < len(words):
        end = start + 1
        while end < len(words) and end - start < _LONGEST_COMPOUND and joinable[end] and not words[end].space_before:
            end += 1
        for end in range(end, start + 1, -1) if joinable[start] else ():
            written = "".join(word.surface for word in words[start:end])
            found = any(kanji[start:end]) and compound_readings(written)
            if found and words[start].numeral and not is_common(written):
                found = ()  # a number and its counter: the analyser reads those (二時 is にじ, not ふたとき)
            if found:
                run = words[start:end]
                pos = run[0].pos if run[0].pos in _COMPOUND_PARTS else "名詞"
                first.append(_Word("".join(word.surface for word in run), found[0], pos, run[0].space_before))
                second.append(first[-1]._replace(reading=found[1] if len(found) > 1 else found[0]))
                start = end
                break
        else:
            first.append(words[start])
            second.append(words[start])
            start += 1
    return first, second


def _joins_previous(word: _Word, previous: _Word | None) -> bool:
    """Whether `word` continues the previous romaji word (no space between)."""
    if previous is None or word.space_before or previous.pos in _NOT_WORDS:
        return False
    if _is_katakana(word.surface) and _is_katakana(previous.surface):
        return True
    compound = word.pos in _COMPOUND_PARTS and previous.pos in _COMPOUND_PARTS
    before = _has_kanji(previous.surface) or previous.surface.isdigit()  # 3月: sangatsu
    return compound and (_has_kanji(word.surface) or word.pos == "接尾辞") and before


def _romaji(words: list[_Word]) -> str:
    spoken: list[str] = []
    previous = None
    for word in words:
        if word.pos not in _NOT_WORDS:
            said = _PARTICLE_ROMAJI.get(word.surface) if word.pos == "助詞" else None
            said = (said or kana.romaji(word.reading)).strip()
            if spoken and _joins_previous(word, previous):
                spoken[-1] += said
            else:
                spoken.append(said)
        previous = word
    return _squeeze(" ".join(spoken)).lower()


def _kana(words: list[_Word]) -> str:
    return _squeeze("".join((" " if word.space_before else "") + word.reading for word in words))


def _normal(text: str) -> str:
    return unicodedata.normalize("NFKC", text or "").strip()


def reading_of(text: str) -> str:
    """The hiragana reading of `text` alone (a query word, a name)."""
    normal = _normal(text)
    return _kana(_compounds(_words(normal))[0]) if normal else ""


def readings_for(text: str) -> Readings:
    """Return hiragana, a second hiragana reading (as katakana) and lower-case
    Hepburn romaji for `text`.

    Kana forms keep the original spacing and Latin words as they are; romaji
    puts a space between words so that `shingeki no kyojin` matches word by
    word, and writes the particles は, へ, を as said (wa, e, o). NFKC first,
    so full-width Latin and half-width kana give the same result as their
    normal forms.
    """
    normal = _normal(text)
    if not normal:
        return Readings("", "", "")
    first, second = _compounds(_words(normal))
    return Readings(hiragana=_kana(first), katakana=kana.katakana(_kana(second)), romaji=_romaji(first))


def _squeeze(text: str) -> str:
    return _SPACES.sub(" ", text).strip()
