"""A page of catalogue items as the held catalogue's columns take it: the
published list items of `mangas_{n}.json` (JSON objects, checked whole) or
typed MangaItems, each field as one list or typed array of values.
Pure module: no framework or I/O."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import chain
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING

from manga_app.core import routes
from manga_app.read_models.columns import SEP

if TYPE_CHECKING:
    from manga_app.read_models.compact import MangaItem

_READING_FORMS = ("hiragana", "katakana", "romaji")


def _strings(values: list, what: str) -> list:
    if not set(map(type, values)) <= {str}:
        raise TypeError(f"{what} must be text")
    return values


def _joined(lists: list, what: str) -> list[str]:
    """Each item's values of a list-of-text field, joined by SEP."""
    values = _strings(list(chain.from_iterable(lists)), what)
    if SEP in "".join(values):
        raise ValueError(f"{what} contains a control character")
    return list(map(SEP.join, lists))


def _reading_forms(readings: list) -> list[list[str]]:
    """Each item's non-empty reading forms, in order. Readings that hold
    only forms (what the publisher writes) are read with dict.values."""
    entries = list(chain.from_iterable(readings))
    if set(map(type, entries)) <= {dict} and set(chain.from_iterable(map(dict.keys, entries))) <= set(_READING_FORMS):
        return [list(filter(None, chain.from_iterable(map(dict.values, forms)))) for forms in readings]
    return [
        [form for reading in forms if isinstance(reading, dict) for key in _READING_FORMS if (form := reading.get(key))]
        for forms in readings
    ]


def _latest_key(item: dict) -> float:
    """The held unit key of an item's latest unit: `latest_unit` says whether
    `latest_chapter` numbers a volume (lists without it name chapters)."""
    unit = item.get("latest_unit")
    if unit is None:
        return item["latest_chapter"]
    if not isinstance(unit, dict) or type(unit.get("number")) not in (int, float):
        raise TypeError("latest_unit must be an object with a number")
    return float(routes.unit_key(unit.get("kind"), unit["number"]))


def _seconds(values: list) -> array:
    """ISO 8601 times as POSIX seconds (a time without a zone is UTC)."""
    moments = list(map(datetime.fromisoformat, _strings(values, "a time")))
    if None in set(map(attrgetter("tzinfo"), moments)):
        moments = [moment if moment.tzinfo else moment.replace(tzinfo=UTC) for moment in moments]
    return array("d", map(datetime.timestamp, moments))


@dataclass(frozen=True, slots=True)
class Page:
    """One page of items, checked, as the values of each column (list-of-text
    fields already joined by SEP, times as POSIX seconds)."""

    slugs: list[str]
    titles: list[str]
    alts: list[str]
    authors: list[str]
    artists: list[str]
    tags: list[str]
    readings: list[str]
    genre_lists: list[Sequence[str]]
    covers: list[str]
    smalls: list[str]
    statuses: list[str]
    latest: array
    updated: array
    created: array
    views: array
    chapters: array
    # 1 where the item names its covers' AVIF copies (cover_avif), else 0.
    avif: bytes = b""


def page_of_raw(items: list[dict]) -> Page:
    """Published list items (JSON objects), checked whole: a malformed item
    raises ValueError/KeyError/TypeError."""
    if not set(map(type, items)) <= {dict}:
        raise TypeError("a list item is not an object")
    updated = _seconds(list(map(itemgetter("updated_at"), items)))
    created_raw = [item.get("created_at") for item in items]
    covers = _strings(list(map(itemgetter("cover"), items)), "cover")
    genre_lists = [item.get("genres") or () for item in items]
    _strings(list(chain.from_iterable(genre_lists)), "genres")
    return Page(
        slugs=_strings(list(map(itemgetter("slug"), items)), "slug"),
        titles=_strings(list(map(itemgetter("title"), items)), "title"),
        alts=_joined([item.get("alt_titles") or () for item in items], "alt_titles"),
        authors=_joined([item.get("authors") or () for item in items], "authors"),
        artists=_joined([item.get("artists") or () for item in items], "artists"),
        tags=_joined([item.get("tags") or () for item in items], "tags"),
        readings=_joined(_reading_forms([item.get("readings") or () for item in items]), "readings"),
        genre_lists=genre_lists,
        covers=covers,
        smalls=_strings([item.get("cover_small") or cover for item, cover in zip(items, covers)], "cover_small"),
        statuses=list(map(itemgetter("status"), items)),
        latest=array("d", map(_latest_key, items)),
        updated=updated,
        created=updated if not any(created_raw) else _seconds(
            [value or item["updated_at"] for value, item in zip(created_raw, items)]),
        views=array("q", map(itemgetter("views"), items)),
        chapters=array("I", (item.get("chapters_count") or 0 for item in items)),
        avif=bytes(isinstance(item.get("cover_avif"), str) and bool(item["cover_avif"]) for item in items),
    )


def page_of_items(items: list[MangaItem]) -> Page:
    """Typed items: only what typing does not promise (the separator) is checked."""
    return Page(
        slugs=list(map(attrgetter("slug"), items)),
        titles=list(map(attrgetter("title"), items)),
        alts=_joined(list(map(attrgetter("alt_titles"), items)), "alt_titles"),
        authors=_joined(list(map(attrgetter("authors"), items)), "authors"),
        artists=_joined(list(map(attrgetter("artists"), items)), "artists"),
        tags=_joined(list(map(attrgetter("tags"), items)), "tags"),
        readings=_joined(list(map(attrgetter("readings"), items)), "readings"),
        genre_lists=list(map(attrgetter("genres"), items)),
        covers=list(map(attrgetter("cover"), items)),
        smalls=[item.cover_small or item.cover for item in items],
        statuses=list(map(attrgetter("status"), items)),
        latest=array("d", map(attrgetter("latest_chapter"), items)),
        updated=array("d", (item.updated_at.timestamp() for item in items)),
        created=array("d", (item.created_at.timestamp() for item in items)),
        views=array("q", map(attrgetter("views"), items)),
        chapters=array("I", map(attrgetter("chapters"), items)),
        avif=bytes(map(attrgetter("cover_avif"), items)),
    )
