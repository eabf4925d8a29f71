"""The operator's placements of chapters (the console's upload, "edit a
placement"): series, volume or chapter, and number, chosen for one file or
folder, which win over its metadata and names when it is planned and
imported (planning.placed). Kept beside the files as a hidden
`.placements.json` (the scanner leaves hidden files out), keyed by the
chapter's path relative to that folder, so the plan, the import job and a
resumed job all read the same choice."""

from __future__ import annotations

import json
import os
from pathlib import Path

from manga_app.catalogue.naming import format_hundredths, to_hundredths, unit_key
from manga_app.catalogue.planning import Placement

__all__ = ["FILE_NAME", "MAX_TITLE", "make", "read", "write"]

FILE_NAME = ".placements.json"
MAX_TITLE = 300
KINDS = ("chapter", "volume")


def make(series: object, kind: object, number: object) -> Placement:
    """A placement from the operator's form; ValueError (English) when it is not one."""
    title = series.strip() if isinstance(series, str) else ""
    if not title or len(title) > MAX_TITLE:
        raise ValueError(f"Give the series' title (1 to {MAX_TITLE} characters).")
    if kind not in KINDS:
        raise ValueError("Choose chapter or volume.")
    try:
        hundredths = to_hundredths(number.strip() if isinstance(number, str) else "")
        unit_key(kind, hundredths)
    except ValueError:
        raise ValueError(f"'{str(number)[:40]}' is not a {kind} number: write 1, 2, 10.5…") from None
    return Placement(title, kind, hundredths)


def read(root: Path) -> dict[str, Placement]:
    """The placements kept in folder `root` (none when it has no file, or an unreadable one)."""
    try:
        data = json.loads((root / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found: dict[str, Placement] = {}
    for path, value in data.items() if isinstance(data, dict) else ():
        try:
            found[path] = make(value["series"], value["kind"], value["number"])
        except (KeyError, TypeError, ValueError):
            continue
    return found


def write(root: Path, placements: dict[str, Placement]) -> None:
    data = {path: {"series": p.series_title, "kind": p.kind, "number": format_hundredths(p.hundredths)}
            for path, p in sorted(placements.items())}
    if not data:
        (root / FILE_NAME).unlink(missing_ok=True)
        return
    temporary = root / f"{FILE_NAME}.tmp"
    temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(temporary, root / FILE_NAME)
