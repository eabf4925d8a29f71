"""Readings from the dictionaries of the jamdict-data package's SQLite copy
of the EDRDG's files. Read-only lookups by an indexed column, a few
microseconds each. Pure module but for the dictionary file.

- JMdict, written compounds: 灯台守 -> とうだいもり, 甘味処 -> かんみどころ,
  一歩 -> いっぽ, where a morphological analyser reads the parts one by one
  (とうだいまもる). An entry marked as common (JMdict's priority tags) comes
  before one that is not, and its readings in the dictionary's order; a
  reading restricted to another spelling of the entry is left out.
- JMnedict, proper names: a person's whole name as written (永井豪 ->
  ながいごう, where the analyser reads つよし), and the names of works.
- KANJIDIC2, a kanji's native (kun) readings, for sequential voicing: only a
  native word voices its first kana in a compound (ドラゴン桜 -> ざくら).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading

import jamdict_data

from manga_app.catalogue.kana import hiragana

__all__ = ["compound_readings", "is_common", "kun_stems", "proper_name_reading"]

_QUERY = """
SELECT k.idseq, EXISTS (SELECT 1 FROM KJP WHERE KJP.kid = k.ID), kana.ID, kana.text,
       (SELECT group_concat(KNR.text, char(10)) FROM KNR WHERE KNR.kid = kana.ID)
FROM Kanji k JOIN Kana kana ON kana.idseq = k.idseq
WHERE k.text = ?
"""
# JMnedict: the readings of an entry written `?` of one of the given kinds
# (person, work...), the lowest entry number first.
_NAME_QUERY = """
SELECT kana.text, group_concat(kinds.text, char(10))
FROM NEKanji k JOIN NEKana kana ON kana.idseq = k.idseq
JOIN NETranslation sense ON sense.idseq = k.idseq JOIN NETransType kinds ON kinds.tid = sense.ID
WHERE k.text = ? GROUP BY k.idseq, kana.ID ORDER BY k.idseq, kana.ID
"""
# KANJIDIC2: every kanji's kun readings (`しま`, `かた.る`: stem and
# okurigana), read once (the readings are not indexed by kanji).
_KUN_QUERY = """
SELECT ch.literal, r.value FROM reading r JOIN rm_group g ON g.ID = r.gid JOIN character ch ON ch.ID = g.cid
WHERE r.r_type = 'ja_kun'
"""
_local = threading.local()


def _connection() -> sqlite3.Connection:
    # sqlite3 connections belong to the thread that opened them.
    connection = getattr(_local, "connection", None)
    if connection is None:
        path = os.path.join(os.path.dirname(jamdict_data.__file__), "jamdict.db")
        connection = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=True)
        _local.connection = connection
    return connection


def compound_readings(written: str) -> tuple[str, ...]:
    """The hiragana readings JMdict gives `written`, most likely first (empty
    when it has no entry)."""
    return _lookup(written)[0]


def is_common(written: str) -> bool:
    """Whether JMdict marks an entry spelled `written` as common (a priority tag)."""
    return _lookup(written)[1]


@functools.lru_cache(maxsize=65_536)
def _lookup(written: str) -> tuple[tuple[str, ...], bool]:
    rows = _connection().execute(_QUERY, (written,)).fetchall()
    rows.sort(key=lambda row: (not row[1], row[0], row[2]))
    readings: list[str] = []
    for _, _, _, text, only_for in rows:
        if only_for and written not in only_for.split("\n"):
            continue
        reading = hiragana(text)
        if reading not in readings:
            readings.append(reading)
    return tuple(readings), any(row[1] for row in rows)


@functools.lru_cache(maxsize=65_536)
def proper_name_reading(written: str, kinds: frozenset[str]) -> str:
    """The hiragana reading JMnedict gives a name written `written` that is
    one of `kinds` ("person"; "work", "product"), or "" when it has none."""
    for reading, found in _connection().execute(_NAME_QUERY, (written,)):
        if kinds.intersection(found.split("\n")):
            return hiragana(reading)
    return ""


def kun_stems(kanji: str) -> frozenset[str]:
    """The stems of a kanji's kun readings (かた.る -> かた; -prefix marks dropped)."""
    return _kun_table().get(kanji, frozenset())


@functools.cache
def _kun_table() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for kanji, value in _connection().execute(_KUN_QUERY):
        table.setdefault(kanji, set()).add(value.split(".")[0].strip("-"))
    return {kanji: frozenset(stems) for kanji, stems in table.items()}
