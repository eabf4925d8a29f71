"""Operator CLI: `python -m manga_app.catalogue import|publish|migrate|reencode|remove|renumber|merge-series ...`.

The library edits (remove, renumber, merge-series) live in edits_cli.py.

Every default comes from the server's own configuration, read the same way:
DATA_DIR, CONTENT_KEY and MEDIA_BASE_URL from the typed settings
(`manga_app.core.config`: the environment, then `.env`), the database from
REFLEX_DB_URL as rxconfig.py and the web layer read it. So what `import` and
`publish` write is what the running site reads and can decrypt.

Messages are English (the operator's language); the exit status is 0 when
everything worked, 1 when a file failed or the database or disk did, 2 for
bad usage or configuration, 130 after Ctrl-C (what was committed stays, and
is complete).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa
from pydantic import ValidationError
from sqlalchemy.engine import make_url
from sqlmodel import Session

from manga_app.catalogue import edits_cli, reencode
from manga_app.core.db import DEFAULT_DB_URL, default_db_url, make_engine, migrate, normalise_url
from manga_app.catalogue.importer import ImportReport, import_source
from manga_app.catalogue.import_report import STOPPED
from manga_app.catalogue.library import EditError
from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.progress import import_progress
from manga_app.catalogue.publisher import publish_catalogue
from manga_app.catalogue.scanner import SourceError
from manga_app.core.config import Settings, content_key
from manga_app.core.text import shown

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class _Failure(Exception):
    """An error the operator can act on; the message says what and the code how bad."""

    def __init__(self, message: str, code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.code = code


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m manga_app.catalogue",
        description="Manga catalogue tools. Defaults come from the site's configuration "
        "(DATA_DIR, CONTENT_KEY, MEDIA_BASE_URL, REFLEX_DB_URL; environment, then .env).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    db_help = f"database URL (default: REFLEX_DB_URL, else {DEFAULT_DB_URL})"
    out_help = "publish into this directory (default: DATA_DIR/published, what the site serves)"
    base_help = "URL prefix of the media store in published files (default: MEDIA_BASE_URL)"

    imp = commands.add_parser("import", help="import CBZ/ZIP archives and image folders")
    imp.add_argument("source", metavar="SRC", help="a folder of series, or one archive")
    imp.add_argument("--db", help=db_help)
    imp.add_argument("--media", type=Path, help="media store directory (default: DATA_DIR/media)")
    imp.add_argument("--out", type=Path, help=out_help)
    imp.add_argument("--media-base-url", help=base_help)
    imp.add_argument("--no-publish", action="store_true", help="do not publish after importing")
    imp.add_argument("--defer-avif", action="store_true", help="in a store without AVIF copies yet, "
                     "write only the JPEG and WebP ones (serve sooner); `reencode` adds them")

    pub = commands.add_parser("publish", help="write genres.json, mangas_N.json and manifests")
    pub.add_argument("--db", help=db_help)
    pub.add_argument("--out", type=Path, help=out_help)
    pub.add_argument("--media-base-url", help=base_help)

    mig = commands.add_parser("migrate", help="create or upgrade the database schema")
    mig.add_argument("--db", help=db_help)

    def common(edit: argparse.ArgumentParser) -> None:
        edit.add_argument("--db", help=db_help)
        edit.add_argument("--out", type=Path, help=out_help)
        edit.add_argument("--media-base-url", help=base_help)

    edits_cli.add_parsers(commands, common)
    reencode.add_parser(commands, db_help, out_help, base_help)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = _settings()
        url = normalise_url(args.db) if args.db else default_db_url()
        if args.command == "migrate":
            _migrate(url)
            print(f"Database is at the newest schema: {_safe(url)}")
            return EXIT_OK
        if args.command == "import":
            return _import(args, settings, url)
        if args.command in edits_cli.COMMANDS:
            return _edit(args, settings, url)
        if args.command == "reencode":
            return _reencode(args, settings, url)
        return _publish(args, settings, url)
    except _Failure as failure:
        print(shown(f"error: {failure}"), file=sys.stderr)
        return failure.code
    except KeyboardInterrupt:
        print("Interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED


def _settings() -> Settings:
    """The server's settings, read afresh (the environment may differ from the cached ones)."""
    try:
        return Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc']).upper()}: {error['msg']}"
            for error in exc.errors()
        )
        raise _Failure(f"invalid configuration: {problems}", EXIT_USAGE) from None


def _migrate(url: str) -> None:
    try:
        migrate(url)
    except sa.exc.SQLAlchemyError as exc:
        raise _Failure(f"cannot open the database {_safe(url)}: {_first_line(exc)}") from None


def _import(args: argparse.Namespace, settings: Settings, url: str) -> int:
    if not args.source.strip():
        raise _Failure("no source given: name a folder of series or one archive (make import SRC=~/comics, "
                       "or python -m manga_app.catalogue import ~/comics)", EXIT_USAGE)
    source = Path(args.source).expanduser()
    if not source.exists():
        raise _Failure(f"{source} does not exist", EXIT_USAGE)
    media_dir = args.media or settings.media_dir
    out_dir = args.out or settings.published_dir
    if not args.no_publish:
        _content_key(settings)  # refuse a bad key before the import, not after it
    _migrate(url)
    engine = make_engine(url)
    try:
        avif = not args.defer_avif or MediaStore(media_dir).has_avif()
        report = _run_import(source, engine, MediaStore(media_dir, avif=avif), skip=[out_dir])
    except SourceError as exc:
        raise _Failure(f"{exc}; choose the folder your comics are in", EXIT_USAGE) from None
    except KeyboardInterrupt:
        print("Interrupted: the chapters imported so far are complete and kept; nothing was published. "
              "Run the same import again to go on (finished chapters are skipped).", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        engine.dispose()
    _print_report(report)
    if report.stopped:
        raise _Failure(f"{report.stopped}: {STOPPED}")
    if not (report.imported or report.skipped or report.failed):
        raise _Failure(
            f"no comics found in {source}: nothing to import (chapters are CBZ/ZIP, CBR/RAR, "
            "CB7/7z, EPUB or PDF files, or folders of page images)",
            EXIT_USAGE,
        )
    # The site serves the published files: publish so the import shows up
    # without a restart (whatever failed, what was imported is complete).
    published = EXIT_OK if args.no_publish else _publish(args, settings, url)
    return EXIT_OK if report.ok and published == EXIT_OK else EXIT_FAILED


def _edit(args: argparse.Namespace, settings: Settings, url: str) -> int:
    """remove / renumber / merge-series: one transaction, then one publish."""
    publish = not (args.no_publish or args.dry_run)
    if publish:
        _content_key(settings)  # refuse a bad key before the edit, not after it
    _migrate(url)
    engine = make_engine(url)
    try:
        lines = edits_cli.run_edit(args, engine, MediaStore(args.media or settings.media_dir))
    except edits_cli.UnknownName as exc:
        raise _Failure(str(exc), EXIT_USAGE) from None
    except EditError as exc:
        raise _Failure(f"{exc}; nothing changed") from None
    except sa.exc.SQLAlchemyError as exc:
        raise _Failure(f"database error, nothing changed: {_first_line(exc)}") from None
    finally:
        engine.dispose()
    print("\n".join(map(shown, lines)))
    return _publish(args, settings, url) if publish else EXIT_OK


def _run_import(source: Path, engine: sa.Engine, media: MediaStore, *, skip) -> ImportReport:
    """The import with its progress display and failures printed as they happen (progress.py)."""
    with import_progress() as display:
        try:
            return import_source(
                source,
                engine=engine,
                media=media,
                skip=skip,
                on_start=display.on_start,
                on_page=display.on_page,
                on_progress=display.on_progress,
                on_failure=display.on_failure,
            )
        except sa.exc.SQLAlchemyError as exc:
            raise _Failure(f"database error: {_first_line(exc)}") from None


def _print_report(report: ImportReport) -> None:
    for path, message in report.notes:
        print(shown(f"NOTE    {path}: {message}"))
    for path, message in report.warnings:
        print(shown(f"WARNING {path}: {message}"))
    for path, message in report.removed:
        print(shown(f"REMOVED {path}: {message}"))
    for path, message in report.failed:
        print(shown(f"FAILED  {path}: {message}"))
    print(
        f"Imported: {len(report.imported)}, skipped (unchanged): {len(report.skipped)}, "
        f"failed: {len(report.failed)}"
    )
    if report.removed:
        print(f"Removed (their files are gone): {len(report.removed)}")


def _publish(args: argparse.Namespace, settings: Settings, url: str) -> int:
    key = _content_key(settings)
    out_dir = args.out or settings.published_dir
    base = args.media_base_url or settings.media_base_url
    _migrate(url)
    engine = make_engine(url)
    try:
        with Session(engine) as session:
            result = publish_catalogue(
                session=session, out_dir=out_dir, content_key=key, media_base_url=base,
                avif=MediaStore(getattr(args, "media", None) or settings.media_dir).has_avif(),
            )
    except sa.exc.SQLAlchemyError as exc:
        raise _Failure(f"database error while publishing: {_first_line(exc)}") from None
    except OSError as exc:
        raise _Failure(
            f"cannot write the published catalogue into {out_dir}: {exc}; the files already "
            "there are complete (each is replaced whole), publish again once fixed"
        ) from None
    except KeyboardInterrupt:
        raise _Failure(
            "interrupted while publishing: every published file is whole, but the list may mix "
            "old and new pages until you publish again (python -m manga_app.catalogue publish)",
            EXIT_INTERRUPTED,
        ) from None
    finally:
        engine.dispose()
    print(
        f"Published {result.series} series on {result.pages} pages, {result.manifests} chapter "
        f"manifests, {result.genres} genres into {result.out_dir} "
        f"(removed {result.removed} stale files; "
        + ("everything published again)" if result.changed is None else f"{result.changed} series changed)")
    )
    return EXIT_OK


def _reencode(args: argparse.Namespace, settings: Settings, url: str) -> int:
    """Re-encode the media store (reencode.py), then publish so the manifests name the new files."""
    if not args.no_publish:
        _content_key(settings)
    _migrate(url)
    engine, media = make_engine(url), MediaStore(args.media or settings.media_dir)
    try:
        code = reencode.run(engine, media, args.workers or os.cpu_count() or 1)
    finally:
        engine.dispose()
    if code is None:  # another reencode is at work on the store; it publishes
        return EXIT_OK
    # With every AVIF copy in, what failed was some high-DPI copies: the others are published.
    published = code == EXIT_OK or (code == 1 and media.has_avif())
    return (_publish(args, settings, url) or code) if published and not args.no_publish else code


def _content_key(settings: Settings) -> str:
    """The key the server decrypts with: CONTENT_KEY, else DATA_DIR/content_key."""
    try:
        return content_key(settings)
    except ValueError as exc:
        raise _Failure(f"CONTENT_KEY: {exc}", EXIT_USAGE) from None
    except OSError as exc:
        raise _Failure(f"cannot read or create the development content key: {exc}") from None


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _safe(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)
