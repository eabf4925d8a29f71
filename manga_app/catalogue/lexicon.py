"""Readings of written compounds from JMdict (the jamdict-data package's
SQLite copy of Jim Breen's dictionary): 灯台守 -> とうだいもり, 甘味処 ->
かんみどころ, 一歩 -> いっぽ, where a morphological analyser reads the parts
one by one (とうだいまもる). Read-only lookups by an indexed column, a few
microseconds each. Pure module but for the dictionary file.

An entry marked as common (JMdict's priority tags) comes before one that is
not, and its readings in the dictionary's order; a reading restricted to
another spelling of the entry is left out.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading

import jamdict_data

from manga_app.catalogue.kana import hiragana

__all__ = ["compound_readings", "is_common"]

_QUERY = """
SELECT k.idseq, EXISTS (SELECT 1 FROM KJP WHERE KJP.kid = k.ID), kana.ID, kana.text,
       (SELECT group_concat(KNR.text, char(10)) FROM KNR WHERE KNR.kid = kana.ID)
FROM Kanji k JOIN Kana kana ON kana.idseq = k.idseq
WHERE k.text = ?
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
