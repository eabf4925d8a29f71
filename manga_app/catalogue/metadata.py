"""The operator's metadata edits of a series or unit (the console's editor):
checked (metadata_form), applied, each edited field locked against the next
import (locks.py) and recorded in the audit log (audit.py). Nothing here
commits: the caller makes the edit one transaction, then one publish."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import audit, kana, locks
from manga_app.catalogue.library import EditError
from manga_app.catalogue.media import MediaError, MediaStore, WriteLog, original_path
from manga_app.catalogue.metadata_form import check_series_form, check_unit_title
from manga_app.catalogue.models import Chapter, Page, Series, SeriesGenre
from manga_app.catalogue.naming import describe_unit, title_key
from manga_app.catalogue.readings import readings_for
from manga_app.catalogue.repository import genres_by_series
from manga_app.catalogue.series_readings import refresh_search
from manga_app.catalogue.upsert import add_genres

__all__ = ["Actor", "FormRefused", "edit_series", "edit_unit_title", "series_form", "set_cover", "title_reading", "unlock"]


@dataclass(frozen=True)
class Actor:
    uid: str
    email: str


class FormRefused(EditError):
    """Some fields did not pass; `errors` says why, per field (nothing changed)."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def title_reading(series: Series) -> str:
    """The reading the operator (or the file) gave the title, else the generated one."""
    entry = next((r for r in series.readings or () if r.get("text") == series.title), None)
    return entry.get("hiragana", "") if entry else ""


def series_form(session: Session, series: Series) -> dict[str, str]:
    """The series' current values as the form shows them (one item per line)."""
    genres = genres_by_series(session=session, series_ids=[series.id])[series.id]
    return {
        "title": series.title, "reading": title_reading(series), "alt_titles": "\n".join(series.alt_titles),
        "authors": "\n".join(series.authors), "artists": "\n".join(series.artists), "summary": series.summary,
        "genres": "\n".join(genres), "tags": "\n".join(series.tags), "status": series.status,
        "direction": series.direction, "age_rating": series.age_rating,
    }


def _current(session: Session, series: Series) -> dict:
    shown = series_form(session, series)
    return {**{name: shown[name] for name in ("title", "reading", "summary", "status", "direction", "age_rating")},
            "alt_titles": list(series.alt_titles), "authors": list(series.authors), "artists": list(series.artists),
            "tags": list(series.tags), "genres": genres_by_series(session=session, series_ids=[series.id])[series.id]}


def edit_series(session: Session, series: Series, form: Mapping[str, object], actor: Actor) -> list[str]:
    """Apply the form to the series: the fields whose value changed (their
    names, as locks and the audit log know them). FormRefused when any field
    is wrong, EditError when the title is another series' title."""
    checked = check_series_form(form)
    if not checked.ok:
        raise FormRefused(checked.errors)
    before, after = _current(session, series), checked.values
    changed = [name for name in after if after[name] != before[name]]
    if "title" in changed:
        _check_title_free(session, series, after["title"])
    for name in changed:
        if name in ("title", "alt_titles", "authors", "artists", "tags", "summary", "status", "direction", "age_rating"):
            setattr(series, name, after[name])
    if "genres" in changed:
        session.execute(sa.delete(SeriesGenre).where(SeriesGenre.series_id == series.id))
        add_genres(session, series, after["genres"])
    _set_reading(series, after["reading"] if "reading" in changed else None)
    fields = {"readings" if name == "reading" else name for name in changed}
    locks.lock(session, series.id, fields)
    for name in changed:
        audit.record(session, actor, "edit", f"series '{series.slug}' {name}", before[name], after[name])
    session.flush()
    return changed


def _check_title_free(session: Session, series: Series, title: str) -> None:
    """Another series already known by this title would meet this one at the next import."""
    key = title_key(title)
    other = session.exec(select(Series).where(Series.title_key == key, Series.id != series.id)).first()
    if other is not None:
        raise FormRefused({"title": f"'{other.title}' ({other.slug}) already has this title; merge the two instead."})


def _set_reading(series: Series, reading: str | None) -> None:
    """The title's reading given by the operator (None: keep; "": the generated one)."""
    given = [r for r in series.readings or () if r.get("text") != series.title]
    if reading:
        generated = readings_for(series.title)
        hiragana = kana.hiragana(reading.replace(" ", "").replace("\u3000", ""))
        given.append({"text": series.title, "hiragana": hiragana, "katakana": kana.katakana(generated.hiragana),
                      "romaji": kana.romaji(hiragana), "source": "operator"})
    if reading is not None:
        series.readings = given
        series.search_text = ""  # readings and search text are made again
    refresh_search(series)


def set_cover(session: Session, series: Series, unit_key: int, page_number: int, media: MediaStore,
              actor: Actor) -> str:
    """The series' cover becomes page `page_number` (from 1) of one of its units."""
    unit = session.exec(select(Chapter).where(Chapter.series_id == series.id, Chapter.number_hundredths == unit_key)).first()
    if unit is None:
        raise FormRefused({"cover": "Choose one of this series' volumes or chapters."})
    page = session.exec(select(Page).where(Page.chapter_id == unit.id, Page.index == page_number - 1)).first()
    if page is None:
        raise FormRefused({"cover": f"{describe_unit(unit_key).capitalize()} has pages 1 to {unit.page_count}."})
    if not media.has_cover(page.media_key):
        try:
            media.store_cover(media.path(original_path(page.media_key, page.ext)).read_bytes(), WriteLog())
        except (MediaError, OSError) as error:
            raise FormRefused({"cover": f"That page's image could not be made a cover ({error}); choose another."}) from None
    before = series.cover_key or ""
    series.cover_key = page.media_key
    locks.lock(session, series.id, {"cover"})
    audit.record(session, actor, "edit", f"series '{series.slug}' cover", before,
                 f"{describe_unit(unit_key)}, page {page_number}")
    session.flush()
    return page.media_key


def edit_unit_title(session: Session, series: Series, unit_key: int, title: object, actor: Actor) -> bool:
    """Whether the unit's title changed (then it is locked)."""
    checked = check_unit_title(title)
    if not checked.ok:
        raise FormRefused(checked.errors)
    unit = session.exec(select(Chapter).where(Chapter.series_id == series.id, Chapter.number_hundredths == unit_key)).first()
    if unit is None:
        raise FormRefused({"unit": f"'{series.title}' has no {describe_unit(unit_key)}."})
    if unit.title == checked.values["title"]:
        return False
    before, unit.title = unit.title, checked.values["title"]
    locks.lock(session, series.id, {"title"}, chapter_id=unit.id)
    audit.record(session, actor, "edit", f"series '{series.slug}' {describe_unit(unit_key)} title", before, unit.title)
    session.flush()
    return True


def unlock(session: Session, series: Series, field: str, actor: Actor, unit_key: int | None = None) -> bool:
    chapter_id = None
    if unit_key is not None:
        chapter_id = session.exec(select(Chapter.id).where(Chapter.series_id == series.id,
                                                           Chapter.number_hundredths == unit_key)).first()
        if chapter_id is None:
            return False
    if not locks.unlock(session, series.id, field, chapter_id):
        return False
    where = f" {describe_unit(unit_key)}" if unit_key is not None else ""
    audit.record(session, actor, "unlock", f"series '{series.slug}'{where} {field}", "locked", "unlocked")
    return True
