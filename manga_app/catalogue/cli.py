"""Operator CLI: `python -m manga_app.catalogue import|publish|migrate ...`.

Messages are English (the operator's language); the exit status is non-zero
when any file failed, so scripts and CI notice a partial import.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from sqlalchemy.engine import make_url
from sqlmodel import Session

from manga_app.catalogue.db import PROJECT_ROOT, default_db_url, make_engine, migrate, normalise_url
from manga_app.catalogue.importer import ImportReport, import_source
from manga_app.catalogue.keys import ensure_dev_content_key, validate_content_key
from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.publisher import publish_catalogue

__all__ = ["main"]

_DATA_DIR = Path(os.environ.get("DATA_DIR") or PROJECT_ROOT / "data")
DEFAULT_MEDIA_DIR = _DATA_DIR / "media"
DEFAULT_PUBLISH_DIR = _DATA_DIR / "published"
DEFAULT_KEY_FILE = _DATA_DIR / "content_key"
EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m manga_app.catalogue", description="Manga catalogue tools."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    db_help = "database URL (default: REFLEX_DB_URL, else sqlite:///data/manga.db)"

    imp = commands.add_parser("import", help="import CBZ/ZIP archives and image folders")
    imp.add_argument("source", type=Path, metavar="SRC", help="a folder of series, or one archive")
    imp.add_argument("--db", help=db_help)
    imp.add_argument("--media", type=Path, default=DEFAULT_MEDIA_DIR, help="media store directory")
    imp.add_argument("--out", type=Path, default=DEFAULT_PUBLISH_DIR, help="publish into this directory afterwards")
    imp.add_argument("--media-base-url", default=os.environ.get("MEDIA_BASE_URL", "/media"))
    imp.add_argument("--no-publish", action="store_true", help="do not publish after importing")

    pub = commands.add_parser("publish", help="write genres.json, mangas_N.json and manifests")
    pub.add_argument("--db", help=db_help)
    pub.add_argument("--out", type=Path, default=DEFAULT_PUBLISH_DIR, help="output directory")
    pub.add_argument("--media-base-url", default=os.environ.get("MEDIA_BASE_URL", "/media"))

    mig = commands.add_parser("migrate", help="create or upgrade the database schema")
    mig.add_argument("--db", help=db_help)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    url = normalise_url(args.db) if args.db else default_db_url()
    if args.command == "migrate":
        migrate(url)
        print(f"Database is at the newest schema: {_safe(url)}")
        return EXIT_OK
    if args.command == "import":
        return _import(args, url)
    return _publish(args, url)


def _import(args: argparse.Namespace, url: str) -> int:
    if not args.source.exists():
        print(f"error: {args.source} does not exist", file=sys.stderr)
        return EXIT_USAGE
    migrate(url)
    engine = make_engine(url)
    console = Console(stderr=True)
    columns = (
        TextColumn("Importing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("", total=None)
        report = import_source(
            args.source,
            engine=engine,
            media=MediaStore(args.media),
            on_start=lambda total: progress.update(task, total=total),
            on_progress=lambda c: progress.update(task, advance=1, description=c.path.name),
        )
    engine.dispose()
    _print_report(report)
    # The site serves the published files: publish so the import shows up
    # without a restart (whatever failed, what was imported is complete).
    published = EXIT_OK if args.no_publish else _publish(args, url)
    return EXIT_OK if report.ok and published == EXIT_OK else EXIT_FAILED


def _print_report(report: ImportReport) -> None:
    for path, message in report.warnings:
        print(f"WARNING {path}: {message}")
    for path, message in report.failed:
        print(f"FAILED  {path}: {message}")
    print(
        f"Imported: {len(report.imported)}, skipped (unchanged): {len(report.skipped)}, failed: {len(report.failed)}"
    )


def _publish(args: argparse.Namespace, url: str) -> int:
    try:
        env_key = os.environ.get("CONTENT_KEY")
        key = validate_content_key(env_key) if env_key else ensure_dev_content_key(DEFAULT_KEY_FILE)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    migrate(url)
    engine = make_engine(url)
    with Session(engine) as session:
        result = publish_catalogue(
            session=session, out_dir=args.out, content_key=key, media_base_url=args.media_base_url
        )
    engine.dispose()
    print(
        f"Published {result.series} series on {result.pages} pages, {result.manifests} chapter manifests, "
        f"{result.genres} genres into {result.out_dir} (removed {result.removed} stale files)"
    )
    return EXIT_OK


def _safe(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)
