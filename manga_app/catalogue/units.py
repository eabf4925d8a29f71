"""Pure helpers for Japanese unit names: kanji numerals, parts, extras, volumes.

A readable unit is a volume (巻) or a chapter (話/回/章). What a name says
beyond a plain number is turned into an exact place in reading order, in
hundredths added to the chapter it belongs to, so no two forms collide:

| name                        | unit            | number                         |
|-----------------------------|-----------------|--------------------------------|
| `第十二話`, `十二話`, `１２話` | chapter         | 12                             |
| `第5話 前編` / `中編` / `後編` | chapter         | 5, 5.25, 5.5 (the halves)      |
| `第5話 番外編` / `特別編` / `おまけ` | chapter  | 5.7, 5.8, 5.9 (after chapter 5)|
| `第50話 最終話`               | chapter         | 50 (titled 最終話)             |
| `最終話`, `番外編`, `おまけ2` alone | chapter  | after the last numbered sibling: +1 for 最終話, +.7/.8/.9 (+.01 per extra number after the first) for extras |
| `上巻` / `中巻` / `下巻`       | volume          | 1, 2, 3                        |

So a chapter titled with a part never takes the number of the chapter it
splits from another part, and extras sort right after their chapter.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

__all__ = [
    "EXTRA_OFFSETS",
    "PART_OFFSETS",
    "Marker",
    "SeriesName",
    "arabic_numerals",
    "find_marker",
    "kanji_number",
    "series_name",
]

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_KANJI = "〇零一二三四五六七八九十百千万"
# Kanji numerals are only numbers where a counter says so: after 第, or right
# before 話/回/章/巻 (第三話, 十二話, 第一巻). Elsewhere they are words (一人, 三日月).
_KANJI_NUMBER = re.compile(rf"(?<=第)\s*([{_KANJI}]+)|([{_KANJI}]+)(?=\s*[話回章巻])")

PART_OFFSETS = {"前編": Decimal("0"), "中編": Decimal("0.25"), "後編": Decimal("0.5")}
EXTRA_OFFSETS = {"番外編": Decimal("0.7"), "特別編": Decimal("0.8"), "おまけ": Decimal("0.9")}
_VOLUME_PARTS = {"上": Decimal(1), "中": Decimal(2), "下": Decimal(3)}
_MARKER = re.compile(
    r"(?P<part>前編|中編|後編)|(?P<extra>番外編|特別編|おまけ)\s*(?P<index>\d+)?"
    r"|(?P<final>最終話|最終回)|(?<![\w])(?P<half>[上中下])巻"
)


def kanji_number(text: str) -> int:
    """`十二` -> 12, `百五` -> 105, `二〇二` -> 202, `三千十` -> 3010; ValueError if not a numeral."""
    text = text.strip()
    if not text or any(ch not in _KANJI for ch in text):
        raise ValueError(f"not a kanji numeral: {text!r}")
    if all(ch in _DIGITS for ch in text):  # positional: 二〇二 is 202
        return int("".join(str(_DIGITS[ch]) for ch in text))
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        elif ch in _UNITS:
            section += (1 if digit is None else digit) * _UNITS[ch]
            digit = None
        else:  # 万
            total += (section + (digit or 0)) * 10000
            section, digit = 0, None
    return total + section + (digit or 0)


def arabic_numerals(text: str) -> str:
    """Kanji numerals used as counts of chapters or volumes, rewritten in digits."""

    def replace(match: re.Match) -> str:
        run = match.group(1) or match.group(2)
        try:
            return str(kanji_number(run))
        except ValueError:
            return match.group(0)

    return _KANJI_NUMBER.sub(replace, text)


@dataclass(frozen=True)
class Marker:
    """A part, extra, final-chapter or 上/中/下巻 marker found in a name.

    `offset`: hundredths added to the chapter number it follows; `volume`: the
    volume number 上/中/下巻 stands for; `final`: 最終話. `start`/`end`: where it is.
    """

    start: int
    end: int
    text: str
    offset: Decimal = Decimal(0)
    volume: Decimal | None = None
    final: bool = False
    extra: bool = False


def find_marker(text: str) -> Marker | None:
    match = _MARKER.search(text)
    if match is None:
        return None
    start, end, word = match.start(), match.end(), match.group(0).strip()
    if match["part"]:
        return Marker(start, end, word, offset=PART_OFFSETS[match["part"]])
    if match["extra"]:
        index = int(match["index"]) if match["index"] else 1
        offset = EXTRA_OFFSETS[match["extra"]] + Decimal(max(index - 1, 0)) / 100
        return Marker(start, end, word, offset=offset, extra=True)
    if match["final"]:
        return Marker(start, end, word, final=True)
    return Marker(start, end, word, volume=_VOLUME_PARTS[match["half"]])


@dataclass(frozen=True)
class SeriesName:
    """A series folder's name without its tags, and what the tags said."""

    title: str | None
    authors: tuple[str, ...] = ()
    status: str | None = None  # 'completed' or 'ongoing' when a tag says so


_TAG = re.compile(r"\[([^\]]*)\]|\(([^)]*)\)|【([^】]*)】|\{([^}]*)\}")
_COMPLETED = {"完", "完結", "全巻", "complete", "completed"}
_ONGOING = {"連載中", "ongoing"}
_AUTHOR_SPLIT = re.compile(r"\s*[×x&、,/／]\s*")


def series_name(name: str) -> SeriesName:
    """`[作者] 作品名 (完)` -> 作品名 by 作者, completed; `【…】` and other tags are dropped.

    A leading `[…]` names the author (the usual `[作者] 作品名` of Japanese
    libraries); `(完)`, `(完結)`, `【完結】` say the series is complete and
    `(連載中)` that it goes on. Width is normalised first (［作者］ is [作者]).
    """
    text = unicodedata.normalize("NFKC", name).replace("_", " ").strip()
    authors: tuple[str, ...] = ()
    status = None
    for index, match in enumerate(_TAG.finditer(text)):
        inner = next(group for group in match.groups() if group is not None).strip()
        if inner.casefold() in _COMPLETED:
            status = "completed"
        elif inner.casefold() in _ONGOING:
            status = "ongoing"
        elif index == 0 and match.start() == 0 and text.startswith("[") and inner:
            authors = tuple(a for a in _AUTHOR_SPLIT.split(inner) if a)
    title = " ".join(_TAG.sub(" ", text).split()).strip(" -_.:~–—|")
    if not title and authors:  # `[作品名]` alone: the tag is the title
        title, authors = " ".join(authors), ()
    return SeriesName(title or None, authors, status)
