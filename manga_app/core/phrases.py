"""Where a Japanese title or heading may break across lines: between
phrases (文節) as BudouX finds them, never inside a word. Browsers break
Japanese between any two characters (「ください / い。」); a page marks
these boundaries with <wbr> and forbids every other break (CSS
`word-break: keep-all`), so every browser, Safari included, breaks the
same way from the server's first HTML on. Pure: no framework imports."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import budoux

_PARSER = budoux.load_default_japanese_parser()
# Titles and headings are short; a few thousand cover every page a process shows.
_CACHE_SIZE = 8192


def _wordlike(char: str) -> bool:
    """A letter or digit of a Latin word, half- or full-width (Ａ, ３ too)."""
    folded = unicodedata.normalize("NFKC", char)
    return len(folded) == 1 and folded.isascii() and folded.isalnum()


@lru_cache(maxsize=_CACHE_SIZE)
def boundaries(text: str) -> tuple[int, ...]:
    """Offsets inside `text` where a line may break (0 < offset < len)."""
    offsets: list[int] = []
    at = 0
    for phrase in _PARSER.parse(text)[:-1]:
        at += len(phrase)
        # Latin runs stay whole (ＳＰＹ×ＦＡＭＩ / ＬＹ, Obse / rvation).
        if not (_wordlike(text[at - 1]) and _wordlike(text[at])):
            offsets.append(at)
    return tuple(offsets)


def phrases(text: str) -> list[str]:
    """`text` cut at its break opportunities."""
    cuts = (0, *boundaries(text), len(text))
    return [text[start:end] for start, end in zip(cuts, cuts[1:]) if end > start]
