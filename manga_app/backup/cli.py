"""`python -m manga_app backup DIR` and `python -m manga_app restore DIR`.

backup: a new folder DIR holding the database (database.sqlite3, or
database.pgdump from pg_dump), the content key (unless it comes from the
CONTENT_KEY setting, which the operator keeps), media/, published/ and
backup.json (what is in it). Safe while the site runs: the database copy is
one consistent snapshot, media are copied after it and every original the
copy names is checked to be there. It is written beside DIR and renamed into
place when complete, so DIR is a whole backup or absent.

restore: into the configured DATA_DIR and database (REFLEX_DB_URL), which must
be empty (a fresh data directory, a new database): the database, key, media and
published files go in, the schema is brought to the newest version, and the
catalogue is published again so the published files match the database.

English messages; exit 0 when done, 1 when it failed (nothing half-written is
left), 2 for bad usage."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from sqlmodel import Session

from manga_app.backup import database, files
from manga_app.backup.database import BackupError
from manga_app.catalogue.publisher import publish_site
from manga_app.core.config import Settings
from manga_app.core.db import default_db_url, make_engine, migrate, normalise_url
from manga_app.core.text import shown

FORMAT = 1
MANIFEST = "backup.json"
KEY_FILE = "content_key"


class _Usage(BackupError):
    """Bad usage (exit 2)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m manga_app", description="Back up and restore the site's data.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("backup", "write a backup into the new folder DIR"),
                       ("restore", "restore the backup in DIR into an empty DATA_DIR and database")):
        command = commands.add_parser(name, help=text)
        command.add_argument("dir", metavar="DIR", type=Path)
        command.add_argument("--db", help="database URL (default: REFLEX_DB_URL, else the SQLite file under data/)")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
        url = normalise_url(args.db) if args.db else default_db_url()
        lines = backup(args.dir, settings, url) if args.command == "backup" else restore(args.dir, settings, url)
    except _Usage as error:
        print(shown(f"error: {error}"), file=sys.stderr)
        return 2
    except (BackupError, OSError) as error:
        print(shown(f"error: {error}"), file=sys.stderr)
        return 1
    print("\n".join(shown(line) for line in lines))
    return 0


def backup(target: Path, settings: Settings, url: str) -> list[str]:
    target = target.expanduser().resolve()
    if not files.is_empty_dir(target):
        raise _Usage(f"{target} already exists and is not empty: name a new folder")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    try:
        name, originals = database.snapshot(url, partial)
        media = files.copy_tree(settings.media_dir, partial / "media")
        missing = files.missing_originals(partial / "media", originals)
        if missing:
            raise BackupError(f"{len(missing)} media files the database names are not in {settings.media_dir} "
                              f"(first: {missing[0]}); nothing was written. Run the backup again; if it "
                              "repeats, the media store is damaged")
        published = files.copy_tree(settings.published_dir, partial / "published")
        key_file = settings.data_dir / KEY_FILE
        key_kept = settings.content_key is None and key_file.is_file()
        if key_kept:
            shutil.copy2(key_file, partial / KEY_FILE)
        (partial / MANIFEST).write_text(json.dumps({
            "format": FORMAT,
            "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "database": {"kind": database.kind(url), "file": name},
            "content_key": "included" if key_kept else "the CONTENT_KEY setting (not included)",
            "media": {"files": media.files, "bytes": media.bytes},
            "published": {"files": published.files},
        }, indent=2) + "\n", encoding="utf-8")
        if target.exists():
            target.rmdir()
        partial.rename(target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return [
        f"Backed up the {database.kind(url)} database, {media.files} media files "
        f"({media.bytes / 1e6:.1f} MB), {published.files} published files into {target}",
        "The content key is " + ("in the backup: keep the folder private." if key_kept
                                 else "not in the backup (it comes from CONTENT_KEY): keep it with the backup."),
    ]


def restore(source: Path, settings: Settings, url: str) -> list[str]:
    source = source.expanduser().resolve()
    try:
        manifest = json.loads((source / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise _Usage(f"{source} is not a backup (no readable {MANIFEST})") from None
    if manifest.get("format") != FORMAT:
        raise _Usage(f"{source} is a backup of format {manifest.get('format')!r}; this version reads {FORMAT}")
    if not database.is_empty(url):
        raise _Usage("the database to restore into already has tables: restore into a new, empty database")
    for folder in (settings.media_dir, settings.published_dir):
        if not files.is_empty_dir(folder):
            raise _Usage(f"{folder} is not empty: restore into a fresh DATA_DIR")
    key_in_backup = source / KEY_FILE
    if key_in_backup.is_file():
        if settings.content_key is not None:
            raise _Usage("the backup holds its content key but CONTENT_KEY is set: unset it, or restore "
                         "with the key the backup was made with")
        if (settings.data_dir / KEY_FILE).exists() and (settings.data_dir / KEY_FILE).read_bytes() != key_in_backup.read_bytes():
            raise _Usage(f"{settings.data_dir / KEY_FILE} holds another content key: restore into a fresh DATA_DIR")
    staged = [(source / "media", settings.media_dir), (source / "published", settings.published_dir)]
    moved: list[Path] = []
    loaded = False
    key_file = settings.data_dir / KEY_FILE
    key_written = key_in_backup.is_file() and not key_file.exists()
    try:
        database.load(url, source, manifest["database"]["file"])
        loaded = True
        for origin, folder in staged:
            partial = folder.with_name(f".{folder.name}.restoring")
            shutil.rmtree(partial, ignore_errors=True)
            files.copy_tree(origin, partial)
            shutil.rmtree(folder, ignore_errors=True)  # empty, checked above
            partial.rename(folder)
            moved.append(folder)
        if key_written:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy2(key_in_backup, key_file)
        migrate(url)
        engine = make_engine(url)
        try:
            with Session(engine) as session:
                result = publish_site(session=session, settings=settings)
        finally:
            engine.dispose()
    except BaseException:
        for folder in moved:
            shutil.rmtree(folder, ignore_errors=True)
        if loaded:
            database.clear(url)
        if key_written:
            key_file.unlink(missing_ok=True)
        raise
    return [f"Restored the backup of {manifest.get('created')} ({manifest['media']['files']} media files) into "
            f"{settings.data_dir}; published {result.series} series again."]
