"""What the last publish wrote and from what, so the next one does only what changed.

`.publish.json` in the output folder records the settings the publish ran
with (media base URL and page size, keyed by the content key: a new key
gives another digest), the change-log token it ended with (changes.py),
the list pages' bounds (per page: its last series id and how many series),
the list files written (size and mtime) and the publish's counts. It is
removed when a publish starts and written when it ends, so an interrupted
publish is never taken for a complete one; the list files and every
manifest in the manifest index are checked before the record is trusted,
so a file removed or altered by hand makes the next publish write
everything again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from manga_app.catalogue.publish_files import TEMPORARY_PREFIX

RECORD = ".publish.json"
_VERSION = 2


def settings_digest(secret: bytes, *, media_base_url: str, page_size: int, avif: bool = False) -> str:
    """A keyed digest of the settings a publish runs with."""
    settings = (_VERSION, media_base_url, page_size, *(("avif",) if avif else ()))
    return hmac.new(secret, repr(settings).encode(), hashlib.sha256).hexdigest()


def forget(out_dir: Path) -> None:
    """From here until `remember`, no record: a publish is under way."""
    (out_dir / RECORD).unlink(missing_ok=True)


def remember(out_dir: Path, *, settings: str, token: str, bounds: Sequence[tuple[int, int]],
             files: Iterable[Path], result: dict) -> None:
    """Record what the publish that just finished wrote."""
    entries = {}
    for path in files:
        info = path.stat()
        entries[path.name] = [info.st_size, info.st_mtime_ns]
    record = {"version": _VERSION, "settings": settings, "token": token, "bounds": [list(b) for b in bounds],
              "files": entries, "result": result}
    temp = out_dir / f"{TEMPORARY_PREFIX}{RECORD}"
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


def trusted(record: dict | None, *, settings: str, token: str | None) -> dict | None:
    """The last publish's record (still in place) when the next publish may
    build on it: the same settings, and nobody took the change log since."""
    if record is None or token is None:
        return None
    return record if record.get("settings") == settings and record.get("token") == token else None


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
