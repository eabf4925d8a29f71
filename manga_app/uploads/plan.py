"""What an import of the operator's staged files would do, before anything is
committed: each chapter the importer would find (catalogue.scanner), placed
by the importer's own rules (catalogue.planning: ComicInfo.xml, series.json,
folder and file names), and matched against the catalogue as the importer
matches it (a series by its title key or an alias; a number already taken by
a file that still exists is a duplicate the importer refuses):

- `new`: a series the catalogue does not have yet;
- `joins`: a unit of a series it has;
- `conflict`: a number already taken (in the catalogue, or twice in the upload);
- `refused`: the importer would not take it, with its reason.

Opens each archive to read its metadata (no page is decoded). Blocking: the
console calls it on a thread."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import placements, upsert
from manga_app.catalogue.archives import ArchiveError, open_chapter, read_small_file
from manga_app.catalogue.comicinfo import MetadataError, SeriesSidecar, parse_series_json
from manga_app.catalogue.import_report import stray_reason
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import describe_unit, title_key
from manga_app.catalogue.planning import ChapterPlan, Placement, PlanError, plan_chapter, read_comicinfo
from manga_app.catalogue.readers.base import DEFAULT_LIMITS
from manga_app.catalogue.scanner import Candidate, scan

__all__ = ["OUTCOMES", "PlannedFile", "plan_staged"]

OUTCOMES = ("new", "joins", "conflict", "refused")


@dataclass(frozen=True)
class PlannedFile:
    path: str  # the chapter's staged path (an archive, or a folder of pages)
    outcome: str  # one of OUTCOMES
    series: str = ""
    unit: str = ""  # "chapter 3", "volume 1"
    reason: str = ""  # why refused or in conflict; a warning otherwise
    edited: bool = False  # placed by the operator (catalogue/placements.py), not by the rules


def _sidecar(candidate: Candidate, read: dict[Path, SeriesSidecar | None], warnings: list[str]) -> SeriesSidecar | None:
    if candidate.sidecar is None:
        return None
    if candidate.sidecar not in read:
        try:
            read[candidate.sidecar] = parse_series_json(read_small_file(candidate.sidecar, DEFAULT_LIMITS.max_metadata_bytes))
        except (OSError, ArchiveError, MetadataError) as error:
            warnings.append(f"series.json ignored: {error}")
            read[candidate.sidecar] = None
    return read[candidate.sidecar]


def _chapter_plan(candidate: Candidate, sidecars: dict, warnings: list[str], placement: Placement | None) -> ChapterPlan:
    """The importer's plan of one chapter; ArchiveError, OSError or PlanError when it has none."""
    with open_chapter(candidate.path, candidate.kind) as source:
        if not source.pages:
            raise PlanError("no page images (JPEG, PNG, WebP, GIF or AVIF) in it")
        info = read_comicinfo(source.comicinfo, warnings.append)
    file_time = datetime.fromtimestamp(candidate.path.stat().st_mtime, UTC)
    return plan_chapter(candidate, info, _sidecar(candidate, sidecars, warnings), file_time=file_time,
                        warn=warnings.append, placement=placement)


def _existing(session: Session, plan: ChapterPlan) -> tuple[Series | None, str | None]:
    """The series the chapter joins (None: a new one), and the file its number was imported from, if it still exists."""
    series = upsert.existing_series(session=session, title=plan.series_title)
    if series is None:
        return None, None
    source = session.exec(select(Chapter.source_path).where(
        Chapter.series_id == series.id, Chapter.number_hundredths == plan.hundredths)).first()
    return series, source if source and Path(source).exists() else None


def plan_staged(root: Path, engine: sa.Engine) -> list[PlannedFile]:
    """The plan of every chapter under `root`, and of every file the importer would leave out."""
    if not root.is_dir():
        return []
    strays: list[Path] = []
    candidates = scan(root, strays=strays)
    sidecars: dict[Path, SeriesSidecar | None] = {}
    claimed: dict[tuple[str, int], str] = {}
    chosen = placements.read(root)
    planned: list[PlannedFile] = []
    with Session(engine) as session:
        for candidate in candidates:
            name = candidate.path.relative_to(root).as_posix()
            warnings: list[str] = []
            try:
                plan = _chapter_plan(candidate, sidecars, warnings, chosen.get(name))
            except (ArchiveError, PlanError) as error:
                planned.append(PlannedFile(name, "refused", reason=str(error)))
                continue
            except OSError as error:
                planned.append(PlannedFile(name, "refused", reason=f"cannot read: {error}"))
                continue
            unit = describe_unit(plan.hundredths)
            series, taken_by = _existing(session, plan)
            title = series.title if series is not None else plan.series_title
            twice = claimed.setdefault((title_key(title), plan.hundredths), name)
            if twice != name:
                planned.append(PlannedFile(name, "conflict", title, unit, f"{unit} is also {twice} in this upload",
                                           name in chosen))
            elif taken_by is not None:
                planned.append(PlannedFile(name, "conflict", title, unit,
                                           f"{unit} of {title} is already imported from {taken_by}", name in chosen))
            else:
                planned.append(PlannedFile(name, "new" if series is None else "joins", title, unit, "; ".join(warnings),
                                           name in chosen))
    planned += [PlannedFile(path.relative_to(root).as_posix(), "refused", reason=stray_reason(path)) for path in strays]
    return planned
