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
the first). Then (each measured alone, bench_readings.py): JMnedict's names
and works (永井豪 ながいごう), JMdict's common words and pronouns (転生
てんせい), sequential voicing (ドラゴン桜 どらごんざくら), numbers before
counters (20世紀 にじゅっせいき). Pure module: no I/O beyond the dictionaries.
"""

from __future__ import annotations

import functools
import re
import threading
import unicodedata
from typing import NamedTuple

from sudachipy import dictionary, tokenizer

from manga_app.catalogue import kana
from manga_app.catalogue.lexicon import compound_readings, is_common, kun_stems, proper_name_reading

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
# JMnedict kinds a whole text is looked up as: a name is a person's, a title a work's.
_PERSON = frozenset({"person"})
_WORK = frozenset({"work", "product"})
_VOICELESS = "かきくけこさしすせそたちつてとはひふへほ"
_VOICE = str.maketrans(_VOICELESS, "がぎぐげござじずぜぞだぢづでどばびぶべぼ")
_VOICED = frozenset("がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽ")


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
    return _before_counters(_fractions(words))


# A number's last kana shortened (促音) before a counter starting with these
# rows: 1回 いっかい, 10歳 じゅっさい, 20世紀 にじゅっせいき, 6本 ろっぽん.
_SHORTENED = {"いち": "かさたは", "はち": "かさたは", "じゅう": "かさたは", "ろく": "かは", "ひゃく": "かは"}
_ROW_OF = {kana_: row for row in ("かきくけこ", "さしすせそ", "たちつてと", "はひふへほぱぴぷぺぽ") for kana_ in row}
_HALF_VOICE = str.maketrans("はひふへほ", "ぱぴぷぺぽ")


def _before_counters(words: list[_Word]) -> list[_Word]:
    """A number written in digits (read on its own, kana.number_reading)
    followed by a kanji word: the number's sound changes before it, and a
    は-row counter becomes ぱ-row after the shortened sound (1本 いっぽん)."""
    for index in range(len(words) - 1):
        number, counter = words[index], words[index + 1]
        if not (number.surface.isdigit() and _has_kanji(counter.surface[:1]) and not counter.space_before):
            continue
        row = _ROW_OF.get(counter.reading[:1], " ")[0]
        ending = next((end for end, rows in _SHORTENED.items() if number.reading.endswith(end) and row in rows), "")
        if ending:
            words[index] = number._replace(reading=number.reading[: -len(ending)] + ending[:-1] + "っ")
            said = counter.reading[:1].translate(_HALF_VOICE) + counter.reading[1:]
            words[index + 1] = counter._replace(reading=said)
    return words


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


def _dictionary_words(words: list[_Word]) -> list[_Word]:
    """A title's word of two or more kanji that JMdict marks as common is read
    as JMdict reads it first (転生 is てんせい, not the analyser's てんしょう),
    and so is a pronoun written in kanji (私 わたし, 何 なに, where the
    analyser says わたくし, なん). Not for names: a name is no dictionary word."""
    out = []
    for word in words:
        compound = word.pos == "名詞" and not word.numeral and len(_KANJI.findall(word.surface)) >= 2
        if (compound and is_common(word.surface)) or (word.pos == "代名詞" and _has_kanji(word.surface)):
            found = compound_readings(word.surface)
            word = word._replace(reading=found[0]) if found else word
        out.append(word)
    return out


def _voiced(words: list[_Word]) -> list[_Word]:
    """Sequential voicing (rendaku): a one-kanji noun read as a native (kun)
    word voices its first kana right after another noun (ドラゴン桜 どらごんざくら),
    unless it holds a voiced sound already (Lyman's law); on readings never do."""
    out: list[_Word] = []
    for word in words:
        previous = out[-1] if out else None
        kanji = _KANJI.findall(word.surface)
        if (previous is not None and previous.pos == "名詞" and not previous.numeral and word.pos == "名詞"
                and not word.space_before and len(kanji) == 1 and _KANJI.match(word.surface)
                and word.reading[:1] in _VOICELESS and not _VOICED.intersection(word.reading)
                and any(stem + word.surface[1:] == word.reading for stem in kun_stems(kanji[0]))):
            word = word._replace(reading=word.reading[0].translate(_VOICE) + word.reading[1:])
        out.append(word)
    return out


def _read(normal: str, *, name: bool) -> tuple[list[_Word], list[_Word]]:
    """The words of `normal` read the first and the second way (see _compounds)."""
    words = _words(normal)
    if name:
        return _compounds(words)
    first, second = _compounds(_dictionary_words(words))
    voiced = _voiced(first)  # a habit, not a rule (親指姫 is おやゆびひめ): the plain one stays searchable
    return (voiced, first) if voiced != first else (first, second)


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
    return _kana(_read(normal, name=False)[0]) if normal else ""


def readings_for(text: str, *, name: bool = False) -> Readings:
    """Return hiragana, a second hiragana reading (as katakana) and lower-case
    Hepburn romaji for `text`, a title or (`name`) a person's name.

    A name JMnedict knows as a person's (a title: as a work's) is read as
    it says, the generated reading kept as the second one.

    Kana forms keep the original spacing and Latin words as they are; romaji
    puts a space between words so that `shingeki no kyojin` matches word by
    word, and writes the particles は, へ, を as said (wa, e, o). NFKC first,
    so full-width Latin and half-width kana give the same result as their
    normal forms.
    """
    normal = _normal(text)
    if not normal:
        return Readings("", "", "")
    first, second = _read(normal, name=name)
    known = proper_name_reading(normal, _PERSON if name else _WORK)
    if known and known != _kana(first):
        return Readings(hiragana=known, katakana=kana.katakana(_kana(first)), romaji=kana.romaji(known).lower())
    return Readings(hiragana=_kana(first), katakana=kana.katakana(_kana(second)), romaji=_romaji(first))


def _squeeze(text: str) -> str:
    return _SPACES.sub(" ", text).strip()
