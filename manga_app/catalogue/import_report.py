"""What an import reports (ImportReport: imported, skipped, failed, warnings,
notes, removed), why a chapter is not imported (ImportFailure), and why a
stray file is not a comic."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


class ImportFailure(Exception):
    """This chapter is not imported; the message says why."""


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

    @property
    def ok(self) -> bool:
        return not self.failed


def stray_reason(path: Path) -> str:
    kind = f"a {path.suffix.lower()} file" if path.suffix else "a file without extension"
    return (
        f"not imported: {kind} is not a comic (chapters are CBZ/ZIP, CBR/RAR, CB7/7z, "
        "EPUB or PDF files, or folders of page images)"
    )
