"""The operator's library edits: `remove`, `renumber` and `merge-series`.

Each edit lands in one transaction (all of it or nothing), the media it
freed is swept once no row uses it, and the catalogue is published once at
the end. `--dry-run` makes the same edit and checks, says what would change
and rolls back. Series are named by slug (as in /manga/{slug}) or exact
title; units by `12`, `10.5`, `第12話`, `第3巻`, `v3` or `vol 3`.

Exit status: 0 done (or would be done), 1 the edit conflicts with the
library (a number already taken), 2 a series or unit that does not exist,
or a malformed number.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import library
from manga_app.catalogue.janitor import Janitor
from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.naming import describe_unit, parse_chapter_name, title_key, to_hundredths, unit_key

__all__ = ["COMMANDS", "UnknownName", "add_parsers", "run_edit"]

COMMANDS = ("remove", "renumber", "merge-series")


class UnknownName(ValueError):
    """A series or unit the library does not have, or a malformed number."""


def add_parsers(commands, common: Callable[[argparse.ArgumentParser], None]) -> None:
    rem = commands.add_parser("remove", help="remove a series, or some of its volumes or chapters")
    rem.add_argument("series", metavar="SERIES", help="slug or exact title")
    rem.add_argument("units", metavar="UNIT", nargs="*", help="e.g. 12, 第12話, 第3巻 (none: the whole series)")
    ren = commands.add_parser("renumber", help="give a volume or chapter another number or kind")
    ren.add_argument("series", metavar="SERIES", help="slug or exact title")
    ren.add_argument("old", metavar="FROM", help="e.g. 12 or 第3巻")
    ren.add_argument("new", metavar="TO", help="e.g. 14, 第14話 or 第3巻")
    mer = commands.add_parser("merge-series", help="move every unit of one series into another")
    mer.add_argument("source", metavar="SOURCE", help="the series that goes away (slug or exact title)")
    mer.add_argument("target", metavar="TARGET", help="the series that keeps everything")
    for parser in (rem, ren, mer):
        parser.add_argument("--dry-run", action="store_true", help="say what would change, change nothing")
        parser.add_argument("--media", type=Path, help="media store directory (default: DATA_DIR/media)")
        parser.add_argument("--no-publish", action="store_true", help="do not publish after the edit")
        common(parser)


def run_edit(args: argparse.Namespace, engine: sa.Engine, media: MediaStore,
             before_commit: Callable[[Session, list[str]], None] | None = None) -> list[str]:
    """Make the edit (or, with --dry-run, check it and roll back); the lines to print.

    UnknownName or library.EditError when it cannot be made (nothing changed).
    `before_commit` writes what goes with the edit in its transaction (the
    console's audit entry).
    """
    with Session(engine) as session:
        if args.command == "remove":
            lines, freed = _remove(session, args)
        elif args.command == "renumber":
            lines, freed = _renumber(session, args)
        else:
            lines, freed = _merge(session, args)
        if args.dry_run:
            session.rollback()
            said = [line if line.startswith("NOTE") else f"would {line}" for line in lines]
            return [*said, "Dry run: nothing changed."]
        if before_commit is not None:
            before_commit(session, lines)
        session.commit()
    warnings: list[tuple[Path, str]] = []
    janitor = Janitor(engine, media, warnings)
    janitor.discard_keys(freed, Path(args.command))
    janitor.flush()
    return [*lines, *(f"WARNING {message}" for _, message in warnings)]


def _remove(session: Session, args) -> tuple[list[str], set[str]]:
    series = _series(session, args.series)
    units = list(session.exec(select(Chapter).where(Chapter.series_id == series.id).order_by(Chapter.number_hundredths)))
    if args.units:
        by_key = {unit.number_hundredths: unit for unit in units}
        keys = [_unit_key(text) for text in args.units]
        missing = [describe_unit(key) for key in keys if key not in by_key]
        if missing:
            raise UnknownName(f"'{series.title}' has no {', '.join(missing)}")
        units = [by_key[key] for key in dict.fromkeys(keys)]
    lines = [f"remove {describe_unit(u.number_hundredths)} of '{series.title}' ({u.page_count} pages)" for u in units]
    lines += [
        f"NOTE    {u.source_path} still exists: the next import of its folder adds it again"
        for u in units
        if u.source_path and os.path.exists(u.source_path)
    ]
    return lines, library.remove_units(session=session, chapters=units)


def _renumber(session: Session, args) -> tuple[list[str], set[str]]:
    series = _series(session, args.series)
    old, new = _unit_key(args.old), _unit_key(args.new)
    unit = session.exec(select(Chapter).where(Chapter.series_id == series.id, Chapter.number_hundredths == old)).first()
    if unit is None:
        raise UnknownName(f"'{series.title}' has no {describe_unit(old)}")
    kind = "volume" if describe_unit(new).startswith("volume") else "chapter"
    freed = library.move_unit(session=session, chapter=unit, series=series, key=new, kind=kind)
    return [f"renumber {describe_unit(old)} of '{series.title}' as {describe_unit(new)}"], freed


def _merge(session: Session, args) -> tuple[list[str], set[str]]:
    source, target = _series(session, args.source), _series(session, args.target)
    count = session.exec(select(sa.func.count(Chapter.id)).where(Chapter.series_id == source.id)).one()
    freed = library.merge_series(session=session, source=source, target=target)
    return [f"merge '{source.title}' ({count} units) into '{target.title}', keeping its title as an alias"], freed


def _series(session: Session, name: str) -> Series:
    found = session.exec(select(Series).where(Series.slug == name)).first()
    found = found or session.exec(select(Series).where(Series.title_key == title_key(name))).first()
    if found is None:
        raise UnknownName(f"no series '{name}': give its slug (as in /manga/SLUG) or its exact title")
    return found


def _unit_key(text: str) -> int:
    parsed = parse_chapter_name(text)
    try:
        if parsed.number is None or parsed.series:
            raise ValueError(text)
        return unit_key(parsed.kind, to_hundredths(parsed.number))
    except ValueError:
        raise UnknownName(
            f"not a chapter or volume number: {text!r} (write 12, 10.5, 第12話 or 第3巻)"
        ) from None
