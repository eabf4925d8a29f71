"""Kana readings and Hepburn romaji for titles, generated once at import.

Search has to find `進撃の巨人` from `しんげき`, `シンゲキ` or `shingeki`; computing
those forms at import keeps the search index a plain string match. Pure module:
no database, no I/O beyond pykakasi's bundled dictionary.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import NamedTuple

import pykakasi

__all__ = ["Readings", "readings_for"]

_SPACES = re.compile(r"\s+")


class Readings(NamedTuple):
    """The forms of one title a visitor might type."""

    hiragana: str
    katakana: str
    romaji: str


@functools.cache
def _kakasi() -> pykakasi.kakasi:
    # Loading the dictionaries takes a moment; one converter per process is enough.
    return pykakasi.kakasi()


def readings_for(text: str) -> Readings:
    """Return hiragana, katakana and lower-case Hepburn romaji for `text`.

    Kana forms keep the original spacing (pykakasi already keeps runs of Latin
    text as they are); romaji puts a space between converted words so that
    `shingeki no kyojin` matches word by word. NFKC first, so full-width Latin
    and half-width kana give the same result as their normal forms.
    """
    normal = unicodedata.normalize("NFKC", text or "").strip()
    if not normal:
        return Readings("", "", "")
    tokens = _kakasi().convert(normal)
    hiragana = "".join(token["hira"] for token in tokens)
    katakana = "".join(token["kana"] for token in tokens)
    romaji = " ".join(token["hepburn"].strip() for token in tokens)
    return Readings(
        hiragana=_squeeze(hiragana),
        katakana=_squeeze(katakana),
        romaji=_squeeze(romaji).lower(),
    )


def _squeeze(text: str) -> str:
    return _SPACES.sub(" ", text).strip()
