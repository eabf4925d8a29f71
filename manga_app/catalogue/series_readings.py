"""A series' readings and search string: generated for every title, alias
and name, except where the file or the operator gave one.

Pure: works on a Series row's fields, no session.
"""

from __future__ import annotations

import unicodedata

from manga_app.catalogue import kana
from manga_app.catalogue.models import Series
from manga_app.catalogue.naming import title_key
from manga_app.catalogue.readings import readings_for

__all__ = ["GIVEN_SOURCES", "refresh_search"]

# A reading's "source" when the file's metadata or the operator gave it.
GIVEN_SOURCES = ("file", "operator")


def refresh_search(series: Series, from_file: tuple[tuple[str, str], ...] = ()) -> None:
    """Readings of every title, alias, author and artist (a name's entry has
    "of": "name"), and the flat search string of the titles. A reading the
    file (`from_file`: text and hiragana) or the operator gave wins and stays
    while its text does; the operator's wins over the file's. Skipped when
    the texts and given readings are the ones the readings were made for."""
    titles = [series.title, *series.alt_titles]
    names = list(dict.fromkeys([*series.authors, *series.artists]))
    texts = [*titles, *names]
    given = {r["text"]: r for r in series.readings or () if r.get("source") in GIVEN_SOURCES and r.get("hiragana")}
    new_given = _file_readings(texts, from_file, given, names=set(names) - set(titles))
    if series.search_text and [r.get("text") for r in series.readings or ()] == texts and not new_given:
        return
    given.update(new_given)
    readings = []
    parts: list[str] = []
    for position, text in enumerate(texts):
        entry = given.get(text) or {"text": text, **readings_for(text, name=position >= len(titles))._asdict()}
        if position >= len(titles):
            entry = {**entry, "of": "name"}
        readings.append(entry)
        if position < len(titles):
            romaji_joined = entry["romaji"].replace(" ", "")
            parts += [text, entry["hiragana"], entry["katakana"], entry["romaji"], romaji_joined]
    series.readings = readings
    normal = (unicodedata.normalize("NFKC", p).lower() for p in parts if p)
    series.search_text = " ".join(dict.fromkeys(normal))


def _file_readings(texts: list[str], from_file: tuple[tuple[str, str], ...], given: dict,
                   names: set[str]) -> dict[str, dict]:
    """Entries for the readings the file gives that are not stored yet, keyed
    by the series text they read (compared as title keys). The file's reading
    is the sort key (hiragana, and its romaji); the generated reading stays
    searchable in the second form (katakana)."""
    by_key = {title_key(text): text for text in texts}
    entries = {}
    for written, reading in from_file:
        text = by_key.get(title_key(written))
        stored = given.get(text) if text else None
        if text is None or (stored and (stored.get("source") == "operator" or stored["hiragana"] == reading)):
            continue
        generated = readings_for(text, name=text in names)
        entries[text] = {"text": text, "hiragana": reading, "katakana": kana.katakana(generated.hiragana),
                         "romaji": kana.romaji(reading), "source": "file"}
    return entries
