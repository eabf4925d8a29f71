"""Decide where a chapter goes: series title, number, title, date and series facts.

Pure: it takes the parsed metadata and the candidate's names and applies the
precedence rules (ComicInfo.xml, then the series.json sidecar, then folder and
file names), so those rules are testable without archives or a database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from manga_app.catalogue.comicinfo import ComicInfo, MetadataError, SeriesSidecar, parse_comicinfo
from manga_app.catalogue.naming import parse_chapter_name, to_hundredths, unit_key
from manga_app.catalogue.scanner import Candidate
from manga_app.catalogue.units import SeriesName, series_name
from manga_app.catalogue.upsert import SeriesFacts
from manga_app.core.text import clean_block, clean_line

__all__ = ["ChapterPlan", "PlanError", "Placement", "plan_chapter", "publication_time", "read_comicinfo"]


class PlanError(ValueError):
    """The chapter cannot be placed (no usable chapter number)."""


@dataclass(frozen=True)
class ChapterPlan:
    series_title: str
    hundredths: int  # the unit's key (naming.unit_key)
    chapter_title: str
    published_at: datetime
    facts: SeriesFacts
    # The day the metadata gives (None: it gives none); a re-import moves an
    # existing chapter's publication time only when this says another day.
    metadata_date: datetime | None = None
    kind: str = "chapter"  # or 'volume'


@dataclass(frozen=True)
class Placement:
    """Where the operator placed a chapter (catalogue/placements.py): it wins
    over the metadata and the names."""

    series_title: str
    kind: str  # 'chapter' or 'volume'
    hundredths: int


def read_comicinfo(data: bytes | None, warn: Callable[[str], None]) -> ComicInfo:
    """Parsed ComicInfo.xml, or an empty one (with a warning) when it is unreadable."""
    if data is None:
        return ComicInfo()
    try:
        return parse_comicinfo(data)
    except MetadataError as exc:
        warn(f"{exc}; using names from the file name instead")
        return ComicInfo()


def plan_chapter(
    candidate: Candidate,
    info: ComicInfo,
    sidecar: SeriesSidecar | None,
    *,
    file_time: datetime,
    warn: Callable[[str], None],
    placement: Placement | None = None,
) -> ChapterPlan:
    """Apply the precedence rules; a folder or file name differing from the title becomes an alias.

    Series title: ComicInfo Series, the sidecar's name, the series folder's
    name without its tags (`[作者] 作品名 (完)` is 作品名, by 作者, completed;
    see units.series_name), the series named in the chapter's own file or folder name, then the
    scanner's fallback (see scanner.py). Only the series folder and the
    chapter's own name are kept as aliases: a fallback like the name of the
    folder the files were dropped into says nothing about the series.
    """
    parsed = parse_chapter_name(candidate.stem)
    folder = series_name(candidate.series_dir.name) if candidate.series_dir else SeriesName(None)
    name_title = folder.title or parsed.series
    fallback = name_title or _untagged(candidate.fallback_title) or candidate.path.parent.name
    sidecar = sidecar or SeriesSidecar()
    # The operator's placement (the console's upload) wins over metadata and names.
    kind, hundredths = (placement.kind, placement.hundredths) if placement else _unit(candidate, info, parsed, warn)
    return _cleaned(ChapterPlan(
        series_title=placement.series_title if placement else info.series or sidecar.name or fallback,
        hundredths=unit_key(kind, hundredths),
        kind=kind,
        chapter_title=info.title or parsed.title or "",
        published_at=publication_time(info.published_at, file_time),
        metadata_date=info.published_at,
        facts=SeriesFacts(
            aliases=tuple(a for a in (*info.aliases, name_title) if a),
            authors=tuple(info.writers) or folder.authors,
            artists=tuple(info.pencillers),
            genres=tuple(info.genres),
            tags=tuple(info.tags),
            summary=sidecar.summary or info.summary,
            status=sidecar.status or folder.status,
            direction=info.direction,
            language=info.language,
            readings=info.readings,
        ),
    ))


def _cleaned(plan: ChapterPlan) -> ChapterPlan:
    """The plan's text as the catalogue keeps it: no control characters or
    non-characters (they would break every XML feed the series is in), line
    breaks and tabs kept in the summary only (core/text.py)."""
    facts = plan.facts

    def names(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(name for name in map(clean_line, values) if name)

    return replace(
        plan,
        series_title=clean_line(plan.series_title) or "無題",
        chapter_title=clean_line(plan.chapter_title),
        facts=replace(
            facts,
            aliases=names(facts.aliases), authors=names(facts.authors), artists=names(facts.artists),
            genres=names(facts.genres), tags=names(facts.tags),
            summary=clean_block(facts.summary) if facts.summary else facts.summary,
            language=clean_line(facts.language) if facts.language else facts.language,
        ),
    )


def _untagged(name: str | None) -> str | None:
    return series_name(name).title if name else None


def publication_time(date: datetime | None, file_time: datetime) -> datetime:
    """When the chapter came out: ComicInfo gives the day, the file's mtime may give the moment.

    ComicInfo has only Year/Month/Day (midnight UTC here). When the file was
    last modified on that same UTC calendar day, its mtime is taken as the
    exact time (taggers and our demo set it so), which lets the site say
    "3分前"; otherwise the date at 00:00 UTC. No date at all: the mtime.
    """
    if date is None:
        return file_time
    if file_time.astimezone(UTC).date() == date.astimezone(UTC).date():
        return file_time.astimezone(UTC)
    return date


def _unit(candidate: Candidate, info: ComicInfo, parsed, warn) -> tuple[str, int]:
    """(kind, number in hundredths): the kind the name gives (a chapter when it
    gives none), numbered by ComicInfo's Number, else by the name.

    Taggers number a volume's ComicInfo too (`第1巻.cbz` with Number 1): that
    stays volume 1, never chapter 1. A Volume without a Number (an EPUB
    volume's group-position) makes the file that volume."""
    if not info.number and info.volume:
        try:
            return "volume", _checked(to_hundredths(info.volume), "volume")
        except ValueError as exc:
            warn(f"ComicInfo.xml Volume ignored: {exc}")
    if info.number:
        kind = "volume" if parsed.kind == "volume" else "chapter"
        try:
            return kind, _checked(to_hundredths(info.number), kind)
        except ValueError as exc:
            warn(f"ComicInfo.xml Number ignored: {exc}")
    number = parsed.number
    if number is None and parsed.after_last is not None:
        number = (candidate.last_sibling or 0) + parsed.after_last
    if number is None:
        raise PlanError("no chapter or volume number in ComicInfo.xml or in the file name")
    try:
        return parsed.kind, _checked(to_hundredths(number), parsed.kind)
    except ValueError as exc:
        raise PlanError(str(exc)) from None


def _checked(hundredths: int, kind: str) -> int:
    unit_key(kind, hundredths)  # ValueError when out of range
    return hundredths
