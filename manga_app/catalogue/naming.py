"""Pure helpers for names: chapter numbers, file-name parsing, slugs, title keys.

Chapter numbers are stored as an integer count of hundredths (10.5 -> 1050):
exact, portable between SQLite and PostgreSQL, sortable, and free of the
float/Decimal drift that Numeric columns show on SQLite.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from manga_app.catalogue.units import arabic_numerals, find_marker
from manga_app.core import routes
from manga_app.core.routes import VOLUME_KEY

__all__ = [
    "FolderRole",
    "ParsedName",
    "chapter_number_json",
    "describe_unit",
    "folder_role",
    "format_hundredths",
    "parse_chapter_name",
    "slugify",
    "title_key",
    "to_hundredths",
    "unit_key",
    "unit_of",
]

# A unit's key: a chapter's number, or for a volume VOLUME_KEY plus its
# number, so volume 3 and chapter 3 never collide (see routes.VOLUME_KEY).
MAX_CHAPTER_NUMBER = VOLUME_KEY
MAX_UNIT_KEY = 2 * VOLUME_KEY
_NUMBER = r"(\d+(?:\.\d+)?)"
_BRACKETS = re.compile(r"\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|【[^】]*】")
_VOLUME = re.compile(rf"(?:\b(?:vol(?:ume)?|v)\.?\s*{_NUMBER}\b|第?\s*{_NUMBER}\s*巻)", re.I)
_CHAPTER_PATTERNS = (
    re.compile(rf"第\s*{_NUMBER}\s*[話回章]"),
    re.compile(rf"\b(?:chapter|chap|ch|c|ep(?:isode)?)\.?\s*{_NUMBER}(?!\d)", re.I),
    re.compile(rf"#\s*{_NUMBER}"),
    re.compile(rf"{_NUMBER}\s*[話回]"),
)
# `第1-5話`: a unit holding chapters 1 to 5.
_RANGE_START = re.compile(rf"第\s*{_NUMBER}(?=\s*[-–~〜]\s*\d+(?:\.\d+)?\s*[話回])")
_BARE_NUMBER = re.compile(rf"(?<![\w.]){_NUMBER}(?![\w.])")
# The end of a range after its first chapter: `c001-005`, `第1-5話`.
_RANGE_TAIL = re.compile(r"\s*[-–~〜]\s*(\d+(?:\.\d+)?)(?=\s|$|[話回])\s*[話回]?")
_RANGED = (_RANGE_START, _CHAPTER_PATTERNS[1])
_EDGE_JUNK = " \t-_.#:~–—|"
_SLUG_JUNK = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class ParsedName:
    """What a file or folder name says about a readable unit (each part may be missing).

    `kind` is 'volume' when the name only numbers a volume (`第1巻`, `v01`,
    `上巻`, `v01 c001-005`), else 'chapter'. `number` is the unit's place in
    reading order (a chapter number, or the volume number for a volume).
    `after_last`: a unit named without a number (`最終話`, `番外編`) goes this
    much after the last numbered chapter beside it (see units.py).
    """

    series: str | None
    number: Decimal | None
    volume: Decimal | None = None
    title: str | None = None
    kind: str = "chapter"
    after_last: Decimal | None = None


def to_hundredths(value: Decimal | str | int | float) -> int:
    """Convert a chapter number to hundredths; ValueError when it is not one.

    Floats go through `str` so that 10.5 stays exactly 1050.
    """
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise ValueError(f"not a chapter number: {value!r}") from None
    if not number.is_finite() or number < 0 or number >= MAX_UNIT_KEY:
        raise ValueError(f"chapter number out of range: {value!r}")
    scaled = number * 100
    if scaled != scaled.to_integral_value():
        raise ValueError(f"chapter number has more than two decimals: {value!r}")
    return int(scaled)


def unit_key(kind: str, hundredths: int) -> int:
    """The key (in hundredths) of volume or chapter `hundredths`; ValueError when out of range."""
    if not 0 <= hundredths < MAX_CHAPTER_NUMBER * 100:
        raise ValueError(f"{kind} number out of range: {format_hundredths(hundredths)}")
    return hundredths + (int(VOLUME_KEY) * 100 if kind == "volume" else 0)


def unit_of(key: int) -> tuple[str, int]:
    """('volume' or 'chapter', its own number in hundredths) of a unit key."""
    offset = int(VOLUME_KEY) * 100
    return ("volume", key - offset) if key >= offset else ("chapter", key)


def describe_unit(key: int, *, number_word: bool = False) -> str:
    """'volume 3' or 'chapter 12' ('chapter number 12' with number_word), for operator messages."""
    kind, hundredths = unit_of(key)
    return f"{kind} {'number ' if number_word else ''}{format_hundredths(hundredths)}"


def format_hundredths(hundredths: int) -> str:
    """A number kept in hundredths, in the site's one format (routes.format_chapter_number):
    '12' for whole numbers, '10.5' or '10.25' otherwise."""
    return routes.format_chapter_number(Decimal(hundredths).scaleb(-2))


def chapter_number_json(hundredths: int) -> int | float:
    """The JSON form: an int when whole, a float like 10.5 otherwise."""
    if hundredths % 100 == 0:
        return hundredths // 100
    return float(format_hundredths(hundredths))


def parse_chapter_name(name: str) -> ParsedName:
    """Parse names like `Series 012`, `第十二話`, `Vol.2 Ch.10.5 - Title`, `第5話 後編`.

    Text before the number is the series, text after it the title (a part or
    extra marker stays in the title). Bracketed tags (`[Group]`, `(2019)`)
    are dropped first: they are noise in scanlation names and often contain
    digits. Kanji numerals counting chapters or volumes become digits.
    """
    text = unicodedata.normalize("NFKC", name).replace("_", " ")
    text = arabic_numerals(" ".join(_BRACKETS.sub(" ", text).split()))
    marker = find_marker(text)
    taken = [(marker.start, marker.end)] if marker else []
    volume_match = _VOLUME.search(text)
    volume = None
    if volume_match:
        volume = Decimal(volume_match.group(1) or volume_match.group(2))
        taken.append(volume_match.span())
    elif marker is not None and marker.volume is not None:
        volume = marker.volume
    match = _find_chapter(text, taken, volume_match)
    starts = [span[0] for span in taken] + ([match.start()] if match else [])
    series = _clean(text[: min(starts)] if starts else text)
    if match is None:
        if volume is not None:
            title = _clean(text[volume_match.end() :]) if volume_match else marker.text
            return ParsedName(series, volume, volume, title, kind="volume")
        if marker is not None and (marker.extra or marker.final):
            after = Decimal(1) if marker.final else marker.offset
            return ParsedName(series, None, None, _clean(text[marker.start :]), after_last=after)
        return ParsedName(series=series, number=None)
    first, rest = Decimal(match.group(1)), text[match.end() :]
    tail = _RANGE_TAIL.match(rest) if match.re in _RANGED else None
    if tail is not None:
        chapters = f"第{first}–{Decimal(tail.group(1))}話"
        if volume is not None:  # `v01 c001-005`: a volume holding chapters 1 to 5
            title = " ".join(filter(None, (chapters, _clean(rest[tail.end() :]))))
            return ParsedName(series, volume, volume, title, kind="volume")
        rest = f"{chapters} {rest[tail.end() :]}"
    offset = marker.offset if marker is not None and marker.start >= match.end() else 0
    return ParsedName(series=series, number=first + offset, volume=volume, title=_clean(rest))


def _find_chapter(text: str, taken: list[tuple[int, int]], volume_match) -> re.Match | None:
    for pattern in (_RANGE_START, *_CHAPTER_PATTERNS):
        match = pattern.search(text)
        if match and not _overlaps(match.span(), taken):
            return match
    bare = [m for m in _BARE_NUMBER.finditer(text) if not _overlaps(m.span(), taken)]
    # Past a volume marker the first number is the chapter (`Vol.2 012`);
    # otherwise the last one is, since series names may contain digits (`20th Century Boys 3`).
    if volume_match:
        after = [m for m in bare if m.start() > volume_match.end()]
        if after:
            return after[0]
    return bare[-1] if bare else None


def _overlaps(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in others)


@dataclass(frozen=True)
class FolderRole:
    """What a folder name says the folder is: 'series', 'volume' or 'chapter'.

    `series` is the series name a volume or chapter folder starts with
    (`ワンダー探偵 第1巻` -> `ワンダー探偵`), else None.
    """

    kind: str
    series: str | None = None


# Stricter than _VOLUME: a folder is only a volume folder when the marker is
# unmistakable (`v` needs two digits or the whole name, as in `v01` or `v3`).
_VOLUME_FOLDER = re.compile(
    rf"\b(?:vol(?:ume)?|tome)\.?\s*{_NUMBER}(?!\d)"
    rf"|\bv\d{{2,}}\b|^v\d+(?=$|\s*[-–—:])"
    rf"|第\s*{_NUMBER}\s*巻|{_NUMBER}\s*巻",
    re.I,
)
_CHAPTER_FOLDER = re.compile(
    rf"第\s*{_NUMBER}\s*[話回章]|\b(?:chapter|chap|ch|ep(?:isode)?)\.?\s*{_NUMBER}(?!\d)|#\s*{_NUMBER}",
    re.I,
)
_ONLY_NUMBER = re.compile(rf"[#\s]*{_NUMBER}")


def folder_role(name: str) -> FolderRole:
    """Classify a folder by its name (see scanner.py for how the roles group chapters).

    - chapter: a chapter marker (`Chapter 3`, `Ch.3`, `第3話`, `Episode 3`,
      `#3`) or nothing but a number (`003`);
    - volume: a volume marker (`Vol 1`, `Vol.01`, `Volume 2`, `v01`, `第1巻`,
      `1巻`), with or without a series name before it and a title after it;
    - extras: `番外編`, `特別編`, `おまけ`, `最終話` (with a series name before
      it or not) group a series' extras, like a volume folder;
    - series: anything else (`ワンダー探偵`, `20th Century Boys`, `Level 99`).
    """
    text = unicodedata.normalize("NFKC", name).replace("_", " ")
    text = arabic_numerals(" ".join(_BRACKETS.sub(" ", text).split()))
    if _ONLY_NUMBER.fullmatch(text):
        return FolderRole("chapter")
    marker = find_marker(text)
    if marker is not None and (marker.extra or marker.final):
        return FolderRole("extras", _clean(text[: marker.start]))
    for pattern, kind in ((_CHAPTER_FOLDER, "chapter"), (_VOLUME_FOLDER, "volume")):
        match = pattern.search(text)
        if match:
            before = text[: match.start()]
            volume = _VOLUME_FOLDER.search(before) if kind == "chapter" else None
            return FolderRole(kind, _clean(before[: volume.start()] if volume else before))
    return FolderRole("series")


def _clean(text: str) -> str | None:
    cleaned = text.strip(_EDGE_JUNK)
    return cleaned or None


def title_key(title: str) -> str:
    """The key that matches a series across imports: NFKC, case-folded, spaces squeezed."""
    return " ".join(unicodedata.normalize("NFKC", title).casefold().split())


_CHAPTER_MARKER = re.compile(r"-ch-(\d)")


def slugify(text: str, *, max_length: int = 80) -> str:
    """ASCII slug from romaji (or any text); '' when nothing usable is left."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = _SLUG_JUNK.sub("-", ascii_text.lower()).strip("-")
    # A series slug must never contain the reader's chapter marker, or its
    # title page URL would read as a chapter URL ("-ch-2" -> "-ch2").
    slug = _CHAPTER_MARKER.sub(r"-ch\1", slug)
    return slug[:max_length].rstrip("-")
