"""The list pages (mangas_{page}.json) in series id order, rewritten only where
a change falls, and each listed series' item with its genres, chapter stats
and readings."""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import repository
from manga_app.catalogue.media import cover_path
from manga_app.catalogue.models import Series
from manga_app.catalogue.naming import chapter_number_json
from manga_app.catalogue.publish_files import iso_utc, media_url, write_json
from manga_app.catalogue.publish_manifests import ManifestWriter
from manga_app.core import routes


class ListPages:
    """The list pages, in series id order: a change rewrites only the page
    holding the series (with the manifests of the changed series on it), and
    the pages after it only when the series before them came or went.

    `bounds` is, per page, (id of its last series, number of series): what
    the publish record keeps so the next publish can tell which pages a set
    of changed series falls on.
    """

    def __init__(self, session: Session, out_dir: Path, manifests: ManifestWriter, base: str, size: int) -> None:
        self.session, self.out_dir, self.manifests, self.base, self.size = session, out_dir, manifests, base, size
        self.bounds: list[tuple[int, int]] = []
        self.slugs: set[str] = set()
        self.removed = 0

    def publish_all(self) -> None:
        for batch in listed_series(self.session, self.size):
            self._write(batch, changed=None)

    def publish_changed(self, bounds: list[list[int]], changed: frozenset[int]) -> None:
        ordered = sorted(changed)
        after = 0  # the id the next page starts after
        for page, (last, count) in enumerate(bounds, start=1):
            started_after = bounds[page - 2][0] if page > 1 else 0
            upper = last if page < len(bounds) else None
            touched = any_between(ordered, after, upper)
            # mangas_1.json is written by every publish: the backend's held
            # catalogue notices a new publish by its validators.
            if page > 1 and after == started_after and not touched:
                self.bounds.append((last, count))
                after = last
                continue
            batch = self._batch(after)
            if not batch:
                return
            self._write(batch, changed=changed)
            after = batch[-1].id
            if len(batch) < self.size:
                return
        while batch := self._batch(after):  # series after the last page's
            self._write(batch, changed=changed)
            after = batch[-1].id

    def _batch(self, after: int) -> Sequence[sa.Row]:
        query = (select(*ITEM_COLUMNS).where(repository._HAS_CHAPTERS, Series.id > after)  # noqa: SLF001
                 .order_by(Series.id).limit(self.size))
        return self.session.execute(query).all()

    def _write(self, batch: Sequence[sa.Row], *, changed: frozenset[int] | None) -> None:
        page = len(self.bounds) + 1
        ids = [s.id for s in batch]
        genre_map = repository.genres_by_series(session=self.session, series_ids=ids)
        stats = repository.chapter_stats(session=self.session, series_ids=ids)
        items = [list_item(s, genre_map[s.id], stats[s.id], self.base, avif=self.manifests.avif) for s in batch]
        write_json(self.out_dir / f"mangas_{page}.json", {"list": items}, only_if_changed=page > 1, gzipped=True)
        republished = batch if changed is None else [s for s in batch if s.id in changed]
        self.removed += self.manifests.publish_batch(self.session, republished, self.base)
        self.slugs.update(s.slug for s in republished)
        self.bounds.append((batch[-1].id, len(batch)))


def any_between(ordered: list[int], low: int, high: int | None) -> bool:
    """Whether a sorted list holds a value in (low, high] (high None: no bound)."""
    index = bisect.bisect_right(ordered, low)
    return index < len(ordered) and (high is None or ordered[index] <= high)


ITEM_COLUMNS = (
    Series.id,
    Series.slug,
    Series.title,
    Series.alt_titles,
    Series.readings,
    Series.authors,
    Series.artists,
    Series.tags,
    Series.status,
    Series.cover_key,
    Series.views,
    Series.created_at,
    Series.updated_at,
)


def listed_series(session: Session, size: int) -> Iterator[Sequence[sa.Row]]:
    """Listed series (repository's rule: with chapters) in id order, in batches.

    One streamed query of plain rows: no ORM objects to build and forget, and
    no re-sorting of the remaining rows for every batch as keyset paging does.
    """
    query = (
        select(*ITEM_COLUMNS)
        .where(repository._HAS_CHAPTERS)  # noqa: SLF001 - the one "listed" rule
        .order_by(Series.id)
        .execution_options(yield_per=size)
    )
    yield from session.execute(query).partitions(size)


def list_item(series: sa.Row, genres: list[str], stats: tuple[int, int], base: str, *, avif: bool = False) -> dict:
    """One list entry: what the backend's held catalogue and search read, nothing more.

    Every backend process downloads, parses and holds all entries, so what
    the list does not need stays out of it: the summary, artists and reading
    direction are on the title page (read from the database), and readings
    carry each form once (see distinct_readings). With `avif` (the media store
    holds every cover's AVIF), `cover_avif` and `cover_small_avif` name them.
    """
    latest, count = stats
    # The latest unit's key stays inside: a volume is published as volume n.
    latest_unit = routes.unit_json(chapter_number_json(latest))
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
        "latest_chapter": latest_unit["number"],
        "latest_unit": latest_unit,
        "updated_at": iso_utc(series.updated_at),
        "created_at": iso_utc(series.created_at),
        "views": int(series.views),
        "authors": list(series.authors),
        "artists": list(series.artists),
        "tags": list(series.tags),
        "chapters_count": count,
        "readings": distinct_readings(series),
    } | (_avif_covers(base, series.cover_key) if avif and series.cover_key else {})


def _avif_covers(base: str, key: str) -> dict[str, str]:
    return {"cover_avif": media_url(base, cover_path(key, 320, "avif")),
            "cover_small_avif": media_url(base, cover_path(key, 160, "avif"))}


_KATAKANA = str.maketrans({chr(c): chr(c + 0x60) for c in range(ord("ぁ"), ord("ゖ") + 1)})


def distinct_readings(series: sa.Row) -> list[dict]:
    """Readings ({"hiragana", "katakana", "romaji"}) of the title and aliases, then of
    the authors' and artists' names (a title is found by how its author's name is
    read), each form once.

    The title's hiragana always comes first (search sorts titles by it, 50音順).
    Any other form is left out when it repeats, ignoring case, the title, an
    alias or an earlier form (Latin aliases read as themselves; an alias is
    often the romaji), and so is a katakana form that is just the hiragana in
    katakana: search folds case and katakana. A reading left with no form is
    left out. Every backend process holds every form of every series, so a
    repeat costs memory once per series and process.
    """
    names = [reading.get("text") or "" for reading in series.readings if reading.get("of") == "name"]
    seen = {text.casefold() for text in (series.title, *series.alt_titles, *names)} | {""}
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
