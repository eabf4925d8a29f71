"""What an import reports (ImportReport: imported, skipped, failed, warnings,
notes, removed), why a chapter is not imported (ImportFailure), and why a
stray file is not a comic."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


# What the operator is told after an OutOfSpace.
STOPPED = ("the import stopped at this chapter. The chapters imported before it are complete and kept, "
           "nothing of this one was kept, and nothing was published; free space, then run the same import "
           "again (finished chapters are skipped)")


class ImportFailure(Exception):
    """This chapter is not imported; the message says why."""


class OutOfSpace(ImportFailure):
    """The disk under the media store or the database is full: this chapter is
    not imported and the import stops there (every later one would fail too)."""


@dataclass
class ImportReport:
    imported: list[Path] = field(default_factory=list)
    skipped: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)
    warnings: list[tuple[Path, str]] = field(default_factory=list)
    # What was left out on purpose (entries that are not pages), for the record.
    notes: list[tuple[Path, str]] = field(default_factory=list)
    # Units removed because their file is gone from the source.
    removed: list[tuple[Path, str]] = field(default_factory=list)
    # Why the import stopped before the last chapter (a full disk), else "".
    stopped: str = ""

    @property
    def ok(self) -> bool:
        return not self.failed


def database_full(exc: BaseException) -> bool:
    """Did the database refuse a write because its disk is full? (SQLite's
    SQLITE_FULL, PostgreSQL's disk_full; `exc` is the driver's error.)"""
    return getattr(exc, "sqlite_errorcode", None) == 13 or getattr(exc, "sqlstate", None) == "53100"


def stray_reason(path: Path) -> str:
    kind = f"a {path.suffix.lower()} file" if path.suffix else "a file without extension"
    return (
        f"not imported: {kind} is not a comic (chapters are CBZ/ZIP, CBR/RAR, CB7/7z, "
        "EPUB or PDF files, or folders of page images)"
    )
