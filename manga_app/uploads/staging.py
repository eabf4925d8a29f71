"""Where the console's uploads live, under DATA_DIR/uploads:

- `incoming/`: tus's files while they arrive (named by upload id, with the
  library's `.info` beside each), kept across a dropped connection or a
  reload so that the upload continues where it stopped;
- `staged/<operator>/`: each operator's finished files, by the path they were
  dropped with (a dropped folder keeps its folders: series, volume, chapter);
- `batches/<n>/`: what an operator confirmed, moved out of staging at once;
  the import job reads it, and it stays as the originals the catalogue
  records (as a library folder's files do).

And the checks an upload meets before a byte is taken: its name, its size
(UPLOAD_MAX_BYTES) and the free disk (UPLOAD_KEEP_FREE_BYTES must stay free).
Refusals are `Refused`: an HTTP status and an English message."""

from __future__ import annotations

import json
import os
import re
import shutil
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path, PurePosixPath

from manga_app.catalogue.scanner import ARCHIVE_SUFFIXES, PAGE_SUFFIXES, UNSUPPORTED_IMAGE_SUFFIXES
from manga_app.core.config import Settings

__all__ = ["Refused", "check_upload", "incoming_dir", "place", "relative_name", "staged_dir", "staged_files",
           "sweep_expired", "uploads_dir"]

MAX_PATH_CHARS = 1000
MAX_PART_BYTES = 255
# Besides chapters (archives, page images): what a dropped series folder holds for the importer.
METADATA_NAMES = frozenset({"comicinfo.xml", "series.json"})
ACCEPTED = "CBZ/ZIP, CBR/RAR, CB7/7z, EPUB or PDF files, folders of page images, ComicInfo.xml or series.json"


class Refused(Exception):
    """Nothing was taken; `status` is the HTTP answer, `message` says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def size_text(size: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024:
            return f"{size:,.0f} {unit}" if unit == "bytes" else f"{size:,.1f} {unit}"
        size /= 1024
    return f"{size:,.1f} TB"


def uploads_dir(settings: Settings) -> Path:
    return settings.data_dir / "uploads"


def incoming_dir(settings: Settings) -> Path:
    return uploads_dir(settings) / "incoming"


def staged_dir(settings: Settings, uid: str) -> Path:
    """The operator's own staging folder (named from the verified uid)."""
    return uploads_dir(settings) / "staged" / (re.sub(r"[^A-Za-z0-9_-]", "_", uid)[:128] or "_")


def relative_name(name: object, relative_path: object = None) -> PurePosixPath:
    """The path a dropped file keeps in staging: its folders (when a folder was
    dropped) and its name, without anything that could leave the folder."""
    # Uppy's relativePath: "folder/…/name" for a file of a dropped folder, else nothing worth keeping.
    text = relative_path if isinstance(relative_path, str) and "/" in relative_path.strip("/") else name
    if not isinstance(text, str) or not text.strip():
        raise Refused(400, "The upload has no file name.")
    parts = [part for part in text.replace("\\", "/").split("/") if part not in ("", ".")]
    shown = text[:200]
    if (not parts or len(text) > MAX_PATH_CHARS or any(
            part == ".." or part.startswith(".") or "\x00" in part or len(part.encode("utf-8", "replace")) > MAX_PART_BYTES
            for part in parts)):
        raise Refused(400, f"'{shown}' is not a name the server can keep (no hidden files, no '..', "
                           f"at most {MAX_PART_BYTES} bytes a name).")
    last = parts[-1].lower()
    suffix = os.path.splitext(last)[1]
    if last not in METADATA_NAMES and suffix not in ARCHIVE_SUFFIXES | PAGE_SUFFIXES | UNSUPPORTED_IMAGE_SUFFIXES:
        raise Refused(415, f"{parts[-1]} is not a comic: upload {ACCEPTED}.")
    return PurePosixPath(*parts)


def check_upload(metadata: dict, length: int | None, settings: Settings) -> PurePosixPath:
    """The upload's staged path when it may start; Refused (400, 413, 415, 507) when not."""
    name = relative_name(metadata.get("filename") or metadata.get("name"), metadata.get("relativePath"))
    if length is None:
        raise Refused(400, f"{name}: the upload must give its size first (Upload-Length).")
    if length > settings.upload_max_bytes:
        raise Refused(413, f"{name} is {size_text(length)}, larger than the {size_text(settings.upload_max_bytes)} "
                           "a file may be (UPLOAD_MAX_BYTES). Split it into volumes or chapters.")
    where = uploads_dir(settings)
    where.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(where).free
    if length + settings.upload_keep_free_bytes > free:
        raise Refused(507, f"Not enough free disk for {name} ({size_text(length)}): {size_text(free)} is free under "
                           f"{settings.data_dir}, and {size_text(settings.upload_keep_free_bytes)} must stay free "
                           "(UPLOAD_KEEP_FREE_BYTES). Free some space, or upload fewer files at once.")
    return name


def place(upload: Path, metadata: dict, uid: str, settings: Settings) -> PurePosixPath:
    """Move a finished upload into the operator's staging folder (replacing a
    file of the same path: the same file dropped again); its staged path."""
    name = relative_name(metadata.get("filename") or metadata.get("name"), metadata.get("relativePath"))
    target = staged_dir(settings, uid) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_dir():
        shutil.rmtree(target)
    os.replace(upload, target)
    Path(f"{upload}.info").unlink(missing_ok=True)
    return name


def staged_files(settings: Settings, uid: str) -> list[PurePosixPath]:
    """The operator's staged files, by their staged paths, in name order (not
    the hidden placements file beside them)."""
    root = staged_dir(settings, uid)
    if not root.is_dir():
        return []
    found = (PurePosixPath(path.relative_to(root).as_posix()) for path in root.rglob("*") if path.is_file())
    return sorted(path for path in found if not any(part.startswith(".") for part in path.parts))


def sweep_expired(settings: Settings, now: datetime | None = None) -> int:
    """Remove the unfinished uploads whose expiry (tus's Upload-Expires) has
    passed: a file nobody came back for stops taking disk. How many went."""
    now, removed = now or datetime.now(UTC), 0
    incoming = incoming_dir(settings)
    for info in incoming.glob("*.info") if incoming.is_dir() else ():
        try:
            expires = parsedate_to_datetime(json.loads(info.read_text()).get("expires") or "")
        except (OSError, ValueError, TypeError, AttributeError):
            continue
        if expires.tzinfo is not None and expires < now:
            info.with_suffix("").unlink(missing_ok=True)
            info.unlink(missing_ok=True)
            removed += 1
    return removed
