"""ComicInfo.xml and Mylar series.json parsed into plain dataclasses.

Only what the catalogue uses is read. Unknown or invalid enum values (Komga's
InvalidEnumValues.xml) become None, never errors: a sloppy tagger should not
block an import. Malformed XML raises MetadataError so the importer can warn
and fall back to file names.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from xml.etree.ElementTree import Element, ParseError

import unicodedata

from manga_app.catalogue import kana
from manga_app.catalogue.naming import title_key
from manga_app.core.text import has_surrogate

try:  # defusedxml refuses entity expansion and external entities.
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring as _xml_fromstring
except ImportError:  # pragma: no cover - defusedxml is in requirements
    from xml.etree.ElementTree import fromstring as _stdlib_fromstring

    class DefusedXmlException(ValueError):
        pass

    def _xml_fromstring(text: bytes) -> Element:
        if re.search(rb"<!DOCTYPE|<!ENTITY", text, re.I):
            raise DefusedXmlException("DOCTYPE and entity declarations are not allowed")
        return _stdlib_fromstring(text)


__all__ = ["ComicInfo", "MetadataError", "SeriesSidecar", "given_reading", "parse_comicinfo", "parse_series_json"]

_LIST_SPLIT = re.compile(r"\s*[,;、]\s*")
# Kana and the long-vowel mark, after dropping what separates the words of a
# file-as ("スズキ, タロウ", "スズキ・タロウ", "すずき たろう").
_KANA_ONLY = re.compile("[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30feー]+")
_READING_SEPARATORS = re.compile("[\\s,、・=＝]+")
_MANGA_VALUES = {"yes": "yes", "no": "no", "yesandrighttoleft": "yes_rtl", "unknown": None}
_MYLAR_STATUS = {
    "continuing": "ongoing",
    "ongoing": "ongoing",
    "ended": "completed",
    "completed": "completed",
}


class MetadataError(ValueError):
    """Metadata that cannot be read at all (malformed XML or JSON)."""


@dataclass(frozen=True)
class ComicInfo:
    series: str | None = None
    number: str | None = None
    # The volume a chapter belongs to, or the number of a file that is a volume (an EPUB's group-position).
    volume: str | None = None
    title: str | None = None
    writers: list[str] = field(default_factory=list)
    pencillers: list[str] = field(default_factory=list)
    genres: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    summary: str | None = None
    language: str | None = None
    manga: str | None = None  # 'yes', 'yes_rtl', 'no' or None when absent/invalid
    published_at: datetime | None = None
    format: str | None = None  # e.g. 'Webtoon'
    localized_series: str | None = None  # ComicInfo 2.1: the title in another language
    alternate_series: str | None = None
    # (text, hiragana reading) pairs the file gives, kana-only readings only.
    readings: tuple[tuple[str, str], ...] = ()

    @property
    def aliases(self) -> tuple[str, ...]:
        """LocalizedSeries and AlternateSeries: other titles of the series.

        Each once (compared as title keys: NFKC, case-folded), and never the
        series title itself.
        """
        seen = {title_key(self.series)} if self.series else set()
        aliases = []
        for value in (self.localized_series, self.alternate_series):
            if value and title_key(value) not in seen:
                seen.add(title_key(value))
                aliases.append(value)
        return tuple(aliases)

    @property
    def direction(self) -> str | None:
        """Reading direction implied by Format and Manga (None: no opinion)."""
        if self.format and "webtoon" in self.format.lower():
            return "vertical"
        # Like Komga: plain "Yes" says manga but not the direction.
        return {"yes_rtl": "rtl", "no": "ltr"}.get(self.manga or "")


@dataclass(frozen=True)
class SeriesSidecar:
    name: str | None = None
    summary: str | None = None
    status: str | None = None  # 'ongoing' / 'completed' / None
    year: int | None = None
    publisher: str | None = None


def parse_comicinfo(data: bytes) -> ComicInfo:
    """Parse ComicInfo.xml bytes; MetadataError when the XML is unreadable."""
    try:
        root = _xml_fromstring(data)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise MetadataError(f"invalid ComicInfo.xml: {exc}") from None
    if _local(root.tag) != "ComicInfo":
        raise MetadataError(f"invalid ComicInfo.xml: root element is <{_local(root.tag)}>")
    values = {_local(child.tag): (child.text or "").strip() for child in root}
    given = [(values.get("Series"), values.get("SeriesSort")), (values.get("Title"), values.get("TitleSort"))]
    given += [(child.get("of"), child.text) for child in root if _local(child.tag) == "Reading"]
    return ComicInfo(
        series=values.get("Series") or None,
        number=values.get("Number") or None,
        volume=values.get("Volume") or None,
        title=values.get("Title") or None,
        writers=_split(values.get("Writer")),
        pencillers=_split(values.get("Penciller")),
        genres=_split(values.get("Genre")),
        tags=_split(values.get("Tags")),
        summary=values.get("Summary") or None,
        language=values.get("LanguageISO") or None,
        manga=_MANGA_VALUES.get((values.get("Manga") or "").lower()),
        published_at=_date(values.get("Year"), values.get("Month"), values.get("Day")),
        format=values.get("Format") or None,
        localized_series=values.get("LocalizedSeries") or None,
        alternate_series=values.get("AlternateSeries") or None,
        readings=_readings(given),
    )


def parse_series_json(data: bytes) -> SeriesSidecar:
    """Parse a Mylar series.json sidecar; MetadataError when it is not one."""
    try:
        document = json.loads(data)
        metadata = document["metadata"]
        if not isinstance(metadata, dict):
            raise TypeError("metadata is not an object")
    except (ValueError, KeyError, TypeError) as exc:
        raise MetadataError(f"invalid series.json: {exc}") from None
    if any(isinstance(value, str) and has_surrogate(value) for value in metadata.values()):
        raise MetadataError("invalid series.json: a lone surrogate escape (not a character) in its text")
    year = metadata.get("year")
    return SeriesSidecar(
        name=_text(metadata.get("name")),
        summary=_text(metadata.get("description_text"))
        or _text(metadata.get("description_formatted")),
        status=_MYLAR_STATUS.get(str(metadata.get("status") or "").lower()),
        year=year if isinstance(year, int) else None,
        publisher=_text(metadata.get("publisher")),
    )


def given_reading(value: str | None) -> str | None:
    """The hiragana reading in `value` when it is written in kana only (NFKC
    first, so half-width katakana counts), else None."""
    joined = _READING_SEPARATORS.sub("", unicodedata.normalize("NFKC", value or ""))
    return kana.hiragana(joined) if _KANA_ONLY.fullmatch(joined) else None


def _readings(pairs: list[tuple[str | None, str | None]]) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    for text, value in pairs:
        reading = given_reading(value)
        if text and text.strip() and reading:
            found.setdefault(text.strip(), reading)
    return tuple(found.items())


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _split(value: str | None) -> list[str]:
    if not value:
        return []
    seen: dict[str, None] = {}
    for item in _LIST_SPLIT.split(value):
        if item.strip():
            seen.setdefault(item.strip(), None)
    return list(seen)


def _text(value: object) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _date(year: str | None, month: str | None, day: str | None) -> datetime | None:
    """Midnight UTC of the given date; a missing month or day counts as the first."""
    try:
        return datetime(int(year), int(month or 1), int(day or 1), tzinfo=UTC)
    except (TypeError, ValueError):
        return None
