"""The console's metadata forms checked field by field: what the operator
typed, cleaned into the values a series or unit stores, or a clear English
message per field. Nothing is written unless every field passes. Pure: no
framework imports."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from manga_app.core.text import clean_block, clean_line

__all__ = ["AGE_RATINGS", "DIRECTIONS", "STATUSES", "Checked", "check_series_form", "check_unit_title", "lines"]

STATUSES = ("ongoing", "completed")
DIRECTIONS = ("rtl", "ltr", "vertical")
AGE_RATINGS = ("", "all", "r15", "r18")
MAX_TITLE = 500
MAX_NAME = 100
MAX_SUMMARY = 5000
MAX_ITEMS = 50
# A reading is kana: hiragana, katakana, the long-vowel mark, middle dot, spaces.
_KANA = re.compile(r"^[\u3041-\u309f\u30a0-\u30ff\u30fc\u30fb\u3000 ]+$")


@dataclass
class Checked:
    values: dict = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


def lines(text: str) -> list[str]:
    """One item per line (commas also separate), trimmed, blank and repeated ones dropped."""
    items = (clean_line(part) for part in re.split(r"[\n,、]", text or ""))
    return list(dict.fromkeys(item for item in items if item))


def _line(checked: Checked, name: str, raw: str, label: str, *, limit: int, required: bool = False) -> None:
    value = clean_line(raw or "")
    if required and not value:
        checked.errors[name] = f"{label} is required."
    elif len(value) > limit:
        checked.errors[name] = f"{label} is too long: at most {limit} characters (it has {len(value)})."
    else:
        checked.values[name] = value


def _list(checked: Checked, name: str, raw: str, label: str, *, limit: int) -> None:
    items = lines(raw)
    long = [item for item in items if len(item) > limit]
    if len(items) > MAX_ITEMS:
        checked.errors[name] = f"{label}: at most {MAX_ITEMS} entries (there are {len(items)})."
    elif long:
        checked.errors[name] = f"{label}: each entry at most {limit} characters ('{long[0][:40]}…' is longer)."
    else:
        checked.values[name] = items


def _choice(checked: Checked, name: str, raw: str, label: str, choices: tuple[str, ...]) -> None:
    value = (raw or "").strip()
    if value not in choices:
        shown = ", ".join(choice or "(none)" for choice in choices)
        checked.errors[name] = f"{label} must be one of: {shown}."
    else:
        checked.values[name] = value


def check_series_form(form: Mapping[str, object]) -> Checked:
    """The series form's fields (every value a string, as a form sends them)."""
    raw = {key: value if isinstance(value, str) else "" for key, value in form.items()}
    checked = Checked()
    _line(checked, "title", raw.get("title", ""), "Title", limit=MAX_TITLE, required=True)
    reading = unicodedata.normalize("NFKC", clean_line(raw.get("reading", "")))
    if reading and not _KANA.match(reading):
        checked.errors["reading"] = "Reading must be written in hiragana or katakana (e.g. しんげきのきょじん)."
    elif len(reading) > MAX_TITLE:
        checked.errors["reading"] = f"Reading is too long: at most {MAX_TITLE} characters."
    else:
        checked.values["reading"] = reading
    _list(checked, "alt_titles", raw.get("alt_titles", ""), "Alternative titles", limit=MAX_TITLE)
    _list(checked, "authors", raw.get("authors", ""), "Authors", limit=MAX_NAME)
    _list(checked, "artists", raw.get("artists", ""), "Artists", limit=MAX_NAME)
    _list(checked, "genres", raw.get("genres", ""), "Genres", limit=MAX_NAME)
    _list(checked, "tags", raw.get("tags", ""), "Tags", limit=MAX_NAME)
    summary = clean_block(raw.get("summary", "")).strip()
    if len(summary) > MAX_SUMMARY:
        checked.errors["summary"] = f"Summary is too long: at most {MAX_SUMMARY} characters (it has {len(summary)})."
    else:
        checked.values["summary"] = summary
    _choice(checked, "status", raw.get("status", ""), "Status", STATUSES)
    _choice(checked, "direction", raw.get("direction", ""), "Reading direction", DIRECTIONS)
    _choice(checked, "age_rating", raw.get("age_rating", ""), "Age rating", AGE_RATINGS)
    title = checked.values.get("title")
    if title and "alt_titles" in checked.values:
        checked.values["alt_titles"] = [alias for alias in checked.values["alt_titles"] if alias != title]
    return checked


def check_unit_title(raw: object) -> Checked:
    checked = Checked()
    _line(checked, "title", raw if isinstance(raw, str) else "", "Unit title", limit=MAX_TITLE)
    return checked
