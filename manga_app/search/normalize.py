"""Japanese-aware search keys: the one folding applied to titles, aliases,
readings and queries alike, so a match is a plain substring test.

Folding: NFKC (full/half width), lower case, Latin accents dropped (ō -> o),
katakana -> hiragana, small kana -> large, spaces and punctuation dropped,
and long vowels made spelling-blind without deleting any kana:

- a long-vowel mark becomes the vowel it lengthens (ラーメン = らあめん);
- う after an o-row kana becomes お, い after an e-row kana becomes え
  (おう = おお = おー, えい = ええ = えー);
- in Latin text, u after o becomes o, i after e becomes e, and a run of one
  vowel is one vowel (kyoujin = kyōjin = kyojin, toukyou = tokyo).

Kana are never deleted, so a vowel that starts a word survives after a
particle (の王国 is のおおこく, and おうこく is in it). The only rewrite that
looks at the character before is う/い after an o-/e-row kana (or u/i after
o/e): a query that starts with one cannot know what the text has before
it, so `term_variants` also tries the rewritten start. Pure module.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from manga_app.catalogue.readings import readings_for

_SMALL_KANA = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")
_LONG_MARKS = "ー〜~～"
_VOWEL_ROWS = {
    "あ": "あかさたなはまやらわがざだばぱ",
    "い": "いきしちにひみりぎじぢびぴ",
    "う": "うくすつぬふむゆるぐずづぶぷゔ",
    "え": "えけせてねへめれげぜでべぺ",
    "お": "おこそとのほもよろをごぞどぼぽ",
}
_KANA_VOWEL = {kana: vowel for vowel, row in _VOWEL_ROWS.items() for kana in row}
# After a kana of the key's row, the value's vowel is the key's: おう -> おお.
_LENGTHENER = {"お": ("う", "お"), "え": ("い", "え")}
_LATIN_VOWELS = "aeiou"
_LATIN_LENGTHENER = {"o": ("u", "o"), "e": ("i", "e")}
# Voiced-sound marks NFKC must see together with the kana before them.
_COMBINING_KANA_MARKS = frozenset("\u3099\u309a\uff9e\uff9f")
# Control, format (zero-width), surrogate, private-use and unassigned.
_UNWANTED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
MAX_QUERY_CHARS = 100
# Cut raw input before normalising so a huge query costs nothing.
_RAW_LIMIT = MAX_QUERY_CHARS * 4
# Keys joined by this survive folding unchanged (see fold_many).
_JOIN = "\n"


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
    if char in _LONG_MARKS:
        return "ー"
    return char.translate(_SMALL_KANA)


def _rewritten(previous: str, char: str) -> str:
    """う after an o-row kana is お (い after e-row: え), and likewise in Latin."""
    rule = _LENGTHENER.get(_KANA_VOWEL.get(previous, "")) or _LATIN_LENGTHENER.get(previous)
    return rule[1] if rule and char == rule[0] else char


def fold_with_map(text: str, key: str | None = None) -> tuple[str, list[tuple[int, int]]]:
    """The search key of `text` (`key`: fold(text), when the caller has it), and for each
    key character the span of `text` it came from (for highlighting matches)."""
    key = fold(text) if key is None else key
    # Most titles fold character for character, only dropping spaces and
    # punctuation: already NFKC, no case folding that changes a length, and
    # a key exactly as long as the characters kept. Then the key's characters
    # come from the kept characters, in order.
    if unicodedata.is_normalized("NFKC", text):
        mapped = text.casefold()
        if len(mapped) == len(text):
            kept = [found.start() for found in _KEY_CHAR.finditer(mapped.translate(_FAST_TABLE))]
            if len(kept) == len(key):
                return key, [(index, index + 1) for index in kept]
            # Romaji (an alias, a reading): only its vowel rewrites shorten it.
            if text.isascii() and "~" not in text:
                latin = _latin_with_map(mapped, kept)
                if latin[0] == key:
                    return latin
    return _fold_with_map(text)


def _latin_with_map(lowered: str, kept: list[int]) -> tuple[str, list[tuple[int, int]]]:
    """fold_with_map of lower-cased ASCII text (`kept`: where its letters and digits
    are): the Latin rewrites on the kept characters, each run of one vowel one key
    character spanning the run. C-level string work, not _fold_with_map's walk."""
    chars = _latin_long_vowels("".join(map(lowered.__getitem__, kept)))
    spans = [(index, index + 1) for index in kept]
    key: list[str] = []
    origins: list[tuple[int, int]] = []
    cursor = 0
    for run in _LATIN_RUN.finditer(chars):
        start, end = run.span()
        key.append(chars[cursor : start + 1])
        origins += spans[cursor:start]
        origins.append((spans[start][0], spans[end - 1][1]))
        cursor = end
    key.append(chars[cursor:])
    origins += spans[cursor:]
    return "".join(key), origins


def _fold_with_map(text: str) -> tuple[str, list[tuple[int, int]]]:
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    after_mark = False  # the last key character stands for a long-vowel mark
    for start, end in _clusters(text):
        for raw in unicodedata.normalize("NFKC", text[start:end]):
            for char in raw.casefold():
                char = _base_char(char)
                if char == "ー":
                    vowel = _KANA_VOWEL.get(chars[-1]) if chars else None
                    if vowel and not after_mark:
                        chars.append(vowel)
                        spans.append((start, end))
                        after_mark = True
                    elif spans:
                        spans[-1] = (spans[-1][0], end)
                    continue
                if not (char.isalnum() or char == "々"):
                    continue
                after_mark = False
                chars.append(char)
                spans.append((start, end))
    out: list[str] = []
    kept: list[tuple[int, int]] = []
    for index, char in enumerate(chars):
        char = _rewritten(chars[index - 1], char) if index else char
        if char in _LATIN_VOWELS and out and out[-1] == char:
            kept[-1] = (kept[-1][0], spans[index][1])
            continue
        out.append(char)
        kept.append(spans[index])
    return "".join(out), kept


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
    **{ord(mark): "ー" for mark in _LONG_MARKS},
}
# _FAST_TABLE then _SMALL_KANA, as one table: one pass over the text.
_FOLD_TABLE = {
    **{code: chr(value) for code, value in _SMALL_KANA.items()},
    **{code: value.translate(_SMALL_KANA) for code, value in _FAST_TABLE.items()},
}
_NOT_KEY = re.compile(r"[^\w々ー\n]|_")
_KEY_CHAR = re.compile(r"(?!_)[\w々ー]")
_KANA_LONG = re.compile("([" + "".join(_KANA_VOWEL) + "])ー+")
_STRAY_LONG = re.compile("ー+")
_O_ROW_U = re.compile("(?<=[" + _VOWEL_ROWS["お"] + "])う")
_E_ROW_I = re.compile("(?<=[" + _VOWEL_ROWS["え"] + "])い")
_LATIN_OU = re.compile("(?<=o)u")
_LATIN_EI = re.compile("(?<=e)i")
_LATIN_RUN = re.compile(r"([aeiou])\1+")


def _latin_long_vowels(text: str) -> str:
    """u after o is o, i after e is e (for fold() and fold_with_map's romaji shortcut)."""
    return _LATIN_OU.sub("o", _LATIN_EI.sub("e", text))


def _kana_long(found: re.Match) -> str:
    kana = found.group(1)
    return kana + _KANA_VOWEL[kana]


def _fold_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().translate(_FOLD_TABLE)
    text = _NOT_KEY.sub("", text)
    if "ー" in text:
        text = _STRAY_LONG.sub("", _KANA_LONG.sub(_kana_long, text))
    # Both rewrites look at the text before either ran (as fold_with_map does).
    text = _O_ROW_U.sub("お", _E_ROW_I.sub("え", text)) if not text.isascii() else text
    return _LATIN_RUN.sub(r"\1", _latin_long_vowels(text))


def fold(text: str) -> str:
    """The search key of `text` (see the module docstring)."""
    return _fold_text(text.replace(_JOIN, " "))


def fold_many(texts: list[str]) -> list[str]:
    """fold() of each text, in one pass over all of them (for the index)."""
    if not texts:
        return []
    return _fold_text(_JOIN.join(text.replace(_JOIN, " ") for text in texts)).split(_JOIN)


# Kunrei-shiki spellings and their Hepburn ones (the index holds Hepburn).
_KUNREI = (
    (re.compile(r"sy(?=[auo])"), "sh"), (re.compile(r"ty(?=[auo])"), "ch"), (re.compile(r"zy(?=[auo])"), "j"),
    (re.compile(r"si"), "shi"), (re.compile(r"ti"), "chi"), (re.compile(r"tu"), "tsu"),
    (re.compile(r"(?<![sc])hu"), "fu"), (re.compile(r"zi"), "ji"),
)


def hepburn(term: str) -> str:
    """A folded Latin term in Hepburn (sangatu -> sangatsu, syoujo -> shoujo)."""
    for pattern, spelled in _KUNREI:
        term = pattern.sub(spelled, term)
    return term


@functools.lru_cache(maxsize=4096)
def _spellings(term: str) -> tuple[str, ...]:
    """The term, its Hepburn form (Latin), or its readings (kanji): 猫 -> ねこ."""
    if term.isascii():
        return tuple(dict.fromkeys((term, fold(hepburn(term)))))
    if not any("\u3400" <= char <= "\u9fff" or char == "々" for char in term):
        return (term,)
    found = readings_for(term)
    # A one-kana reading (日: ひ) would match nearly every title: not a way to find one.
    readings = (fold(found.hiragana), fold(found.katakana))
    return tuple(dict.fromkeys((term, *(key for key in readings if len(key) > 1))))


def term_variants(term: str) -> tuple[str, ...]:
    """The ways a folded query term can appear in a folded text: itself, its
    Hepburn spelling or kana readings (see _spellings), and when one starts
    with う/い (u/i), the form it takes after an o-/e-row kana (o/e) in the text."""
    if not term:
        return ()
    variants: list[str] = []
    for spelled in _spellings(term):
        variants.append(spelled)
        first = {"う": "お", "い": "え", "u": "o", "i": "e"}.get(spelled[0])
        if first is not None:
            variants.append(fold(first + spelled[1:]) if first in _LATIN_VOWELS else first + spelled[1:])
    return tuple(dict.fromkeys(variants))


def _script(char: str) -> str:
    if "\u3040" <= char <= "\u30ff":
        return "kana"
    return "latin" if char.isascii() else "other"


def script_runs(term: str) -> list[str]:
    """A folded term cut where the script changes: `しんげきの巨人` ->
    [しんげきの, 巨人], for kana typed in place of some kanji."""
    runs: list[str] = []
    for char in term:
        if runs and _script(runs[-1][-1]) == _script(char):
            runs[-1] += char
        else:
            runs.append(char)
    return runs


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
