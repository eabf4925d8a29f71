"""What the last publish was made from, so publishing again with nothing
changed costs one read of the database and no writes.

`catalogue_source` digests every row the publisher reads (series, genres and
their links, chapters, pages) together with the media base URL and the page
size, keyed by the content key: any change to the database, the settings or
the key gives another digest. `.publish.json` in the output folder records
that digest, the list files written (size and mtime) and the publish's
counts. It is removed when a publish starts and written when it ends, so an
interrupted publish is never taken for a complete one; the list files and
every manifest in the manifest index are checked before the record is
trusted, so a file removed or altered by hand is written again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pickle
from collections.abc import Iterable
from pathlib import Path

from sqlmodel import Session

RECORD = ".publish.json"
_VERSION = 1
# Raw rows in primary-key order: no ORM objects, no JSON decoding.
_SOURCES = (
    "SELECT id, slug, title, alt_titles, readings, authors, tags, status, cover_key, views,"
    " created_at, updated_at FROM series ORDER BY id",
    "SELECT id, name FROM genre ORDER BY id",
    "SELECT series_id, genre_id FROM series_genre ORDER BY series_id, genre_id",
    "SELECT id, series_id, number_hundredths, kind FROM chapter ORDER BY id",
    'SELECT chapter_id, "index", media_key, width, height FROM page ORDER BY chapter_id, "index"',
)
_BATCH = 5000


def catalogue_source(*, session: Session, secret: bytes, media_base_url: str, page_size: int) -> str:
    """A keyed digest of everything a publish is made from."""
    digest = hmac.new(secret, digestmod=hashlib.sha256)
    digest.update(repr((_VERSION, media_base_url, page_size)).encode())
    # The driver's own cursor (sqlite3, psycopg), inside the session's
    # transaction: plain tuples, pickled in C, cost a third of SQLAlchemy rows.
    cursor = session.connection().connection.driver_connection.cursor()
    try:
        for query in _SOURCES:
            digest.update(b"\x1d" + query.encode())
            cursor.execute(query)
            while rows := cursor.fetchmany(_BATCH):
                digest.update(pickle.dumps(rows, protocol=5))
    finally:
        cursor.close()
    return digest.hexdigest()


def forget(out_dir: Path) -> None:
    """From here until `remember`, no record: a publish is under way."""
    (out_dir / RECORD).unlink(missing_ok=True)


def remember(out_dir: Path, *, source: str, files: Iterable[Path], result: dict) -> None:
    """Record what the publish that just finished wrote."""
    entries = {}
    for path in files:
        info = path.stat()
        entries[path.name] = [info.st_size, info.st_mtime_ns]
    record = {"version": _VERSION, "source": source, "files": entries, "result": result}
    temp = out_dir / f".tmp-{RECORD}"
    temp.write_text(json.dumps(record), encoding="utf-8")
    os.replace(temp, out_dir / RECORD)


def in_place(out_dir: Path, *, manifest_index: Path, index_version: int) -> dict | None:
    """The last publish's record when everything it wrote is still in place
    as written (list files, and every manifest its index lists); else None."""
    try:
        record = json.loads((out_dir / RECORD).read_text(encoding="utf-8"))
        if record.get("version") != _VERSION:
            return None
        for name, expected in record["files"].items():
            info = os.stat(out_dir / name)
            if [info.st_size, info.st_mtime_ns] != expected:
                return None
        if not _manifests_in_place(manifest_index, index_version):
            return None
        return record
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def unchanged(record: dict | None, source: str) -> dict | None:
    """The recorded counts when the last publish (still in place) was made from `source`."""
    return record["result"] if record is not None and record.get("source") == source else None


def _manifests_in_place(index: Path, version: int) -> bool:
    """The index is one the publisher wrote, and every manifest it lists has
    the size and mtime written for it."""
    root = str(index.parent)
    with index.open(encoding="utf-8") as handle:
        if json.loads(handle.readline()) != {"version": version}:
            return False
        for line in handle:
            slug, entries = json.loads(line)
            folder = f"{root}/{slug}/"
            for name, (_digest, size, mtime_ns) in entries.items():
                info = os.stat(folder + name)
                if info.st_size != size or info.st_mtime_ns != mtime_ns:
                    return False
    return True
