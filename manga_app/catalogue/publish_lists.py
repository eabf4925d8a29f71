"""The list pages' items (mangas_{page}.json): the listed series in keyset
batches, and each one's item with its genres, chapter stats and readings."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import repository
from manga_app.catalogue.media import cover_path
from manga_app.catalogue.models import Series
from manga_app.catalogue.naming import chapter_number_json
from manga_app.catalogue.publish_files import iso_utc, media_url


_ITEM_COLUMNS = (
    Series.id,
    Series.slug,
    Series.title,
    Series.alt_titles,
    Series.readings,
    Series.authors,
    Series.tags,
    Series.status,
    Series.cover_key,
    Series.views,
    Series.created_at,
    Series.updated_at,
)


def listed_series(session: Session, size: int) -> Iterator[Sequence[sa.Row]]:
    """Listed series (repository's rule and order: with chapters, newest update first) in batches.

    One streamed query of plain rows: no ORM objects to build and forget, and
    no re-sorting of the remaining rows for every batch as keyset paging does.
    """
    query = (
        select(*_ITEM_COLUMNS)
        .where(repository._HAS_CHAPTERS)  # noqa: SLF001 - the one "listed" rule
        .order_by(*repository._NEWEST_FIRST)  # noqa: SLF001
        .execution_options(yield_per=size)
    )
    yield from session.execute(query).partitions(size)


def list_item(series: sa.Row, genres: list[str], stats: tuple[int, int], base: str) -> dict:
    """One list entry: what the backend's held catalogue and search read, nothing more.

    Every backend process downloads, parses and holds all entries, so what
    the list does not need stays out of it: the summary, artists and reading
    direction are on the title page (read from the database), and readings
    carry each form once (see distinct_readings).
    """
    latest, count = stats
    cover = media_url(base, cover_path(series.cover_key, 320)) if series.cover_key else ""
    cover_small = media_url(base, cover_path(series.cover_key, 160)) if series.cover_key else ""
    return {
        "slug": series.slug,
        "title": series.title,
        "alt_titles": list(series.alt_titles),
        "cover": cover,
        "cover_small": cover_small,
        "genres": genres,
        "status": series.status,
        "latest_chapter": chapter_number_json(latest),
        "updated_at": iso_utc(series.updated_at),
        "created_at": iso_utc(series.created_at),
        "views": int(series.views),
        "authors": list(series.authors),
        "tags": list(series.tags),
        "chapters_count": count,
        "readings": distinct_readings(series),
    }


_KATAKANA = str.maketrans({chr(c): chr(c + 0x60) for c in range(ord("ぁ"), ord("ゖ") + 1)})


def distinct_readings(series: sa.Row) -> list[dict]:
    """Readings ({"hiragana", "katakana", "romaji"}) of the title and aliases, each form once.

    The title's hiragana always comes first (search sorts titles by it, 50音順).
    Any other form is left out when it repeats, ignoring case, the title, an
    alias or an earlier form (Latin aliases read as themselves; an alias is
    often the romaji), and so is a katakana form that is just the hiragana in
    katakana: search folds case and katakana. A reading left with no form is
    left out. Every backend process holds every form of every series, so a
    repeat costs memory once per series and process.
    """
    seen = {text.casefold() for text in (series.title, *series.alt_titles)} | {""}
    readings = []
    for position, reading in enumerate(series.readings):
        hiragana = reading.get("hiragana") or ""
        entry = {}
        for form in ("hiragana", "katakana", "romaji"):
            value = reading.get(form) or ""
            folded = value.casefold()
            keep = folded not in seen
            if form == "katakana" and value == hiragana.translate(_KATAKANA):
                keep = False
            if form == "hiragana" and position == 0 and value:
                keep = True  # the title's reading: the sort key
            if keep:
                entry[form] = value
            seen.add(folded)
        if entry:
            readings.append(entry)
    return readings
