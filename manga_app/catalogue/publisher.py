"""Publish the catalogue as static files: genres.json, mangas_{page}.json, encrypted manifests.

Output is streamed page by page (keyset batches of PAGE_SIZE series), so
memory stays flat at 100,000 series. Every file is written atomically, and
files that no longer apply (pages past the new last page, manifests of
removed chapters or series) are deleted only after the new ones are in place,
so a reader never sees a half-published catalogue.

Publishing again when nothing it reads has changed (publish_record.py: a
digest of the rows, the settings and the key) writes nothing at all.

Re-publishing is incremental where that is safe: a manifest whose page list
is unchanged is not encrypted and written again. `manifests/.index.json`
records, per manifest, a keyed digest of its plaintext (HMAC with the content
key, so a new key re-encrypts everything and the index reveals nothing) and
the size and mtime of the file written for it. The index is removed while a
publish runs and written at its end, so an interrupted publish makes the next
one start from scratch. List pages after the first are only rewritten when
their bytes change; genres.json and mangas_1.json are rewritten by every
publish that found a change, since the backend's held catalogue notices a
new publish by their validators.

Every list page and genres.json gets a gzip twin (`mangas_1.json.gz`,
written atomically beside it, deterministic bytes) that the web layer sends
to clients accepting gzip: compressing a 600 KB page on every request costs
the server more than anything else it does for the backend's loader.

A manifest decrypts to the chapter's page list, `[{url, saver_url, width,
height}, ...]` in reading order; its first page also carries the chapter's
`spread_offset` (bool: double-page view shows the first page alone so that
the spreads start pairs, see spreads.py).
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import os
import re
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import publish_record, repository
from manga_app.core.content_key import validate_content_key
from manga_app.catalogue.media import (
    READER_WIDTH,
    cover_path,
    derivative_size,
    reader_path,
    saver_path,
)
from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import chapter_number_json, format_hundredths
from manga_app.core.crypto import decode_key, encrypt_text

__all__ = [
    "PAGE_SIZE",
    "PublishResult",
    "iso_utc",
    "manifest_page",
    "media_url",
    "publish_catalogue",
]

# Series per list page. Large pages keep the backend's page-by-page loading of
# 100,000 series to ~100 requests (about 1 MB each, gzip shrinks them ~5x).
PAGE_SIZE = 1000
MANIFEST_INDEX = ".index.json"
_INDEX_VERSION = 1
_PAGE_FILE = re.compile(r"^mangas_(\d+)\.json(?:\.gz)?$")
GZIP_LEVEL = 9  # paid once per publish, saved on every download


@dataclass(frozen=True)
class PublishResult:
    out_dir: Path
    series: int
    pages: int
    manifests: int
    genres: int
    removed: int
    rewritten: int = 0  # manifests encrypted and written by this publish (the rest were unchanged)


def iso_utc(moment: datetime) -> str:
    """ISO 8601 in UTC with a 'Z', to the second: '2024-05-01T12:00:00Z'."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def media_url(base: str, rel: str) -> str:
    return f"{base.rstrip('/')}/{rel}"


def manifest_page(base: str, media_key: str, width: int, height: int) -> dict:
    """One page as the reader's manifest lists it: the reader and data-saver
    URLs and the reader image's size (`width` x `height`: the page as recorded)."""
    reader_w, reader_h = derivative_size(width, height, READER_WIDTH)
    return {
        "url": media_url(base, reader_path(media_key, width, height)),
        "saver_url": media_url(base, saver_path(media_key, width, height)),
        "width": reader_w,
        "height": reader_h,
    }


def publish_catalogue(
    *,
    session: Session,
    out_dir: Path,
    content_key: str,
    media_base_url: str,
    page_size: int | None = None,
) -> PublishResult:
    """Write the whole published catalogue into `out_dir` (see the module docstring)."""
    key = validate_content_key(content_key)
    size = page_size or PAGE_SIZE
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # Whether the last publish's files are intact (stat()s: the GIL is free)
    # is checked while the database is read for what this one would be made of.
    with ThreadPoolExecutor(1) as pool:
        last = pool.submit(publish_record.in_place, out_dir, manifest_index=out_dir / "manifests" / MANIFEST_INDEX,
                           index_version=_INDEX_VERSION)
        source = publish_record.catalogue_source(
            session=session, secret=decode_key(key), media_base_url=media_base_url, page_size=size
        )
        recorded = publish_record.unchanged(last.result(), source)
    if recorded is not None:
        return PublishResult(out_dir, **recorded, removed=0, rewritten=0)
    publish_record.forget(out_dir)
    manifests = _ManifestWriter(out_dir / "manifests", key)
    genres = [
        {"name": name, "total": total} for name, total in repository.genre_totals(session=session)
    ]
    _write_json(out_dir / "genres.json", genres, gzipped=True)
    page = series_count = removed = 0
    slugs: set[str] = set()
    try:
        for batch in _listed_series(session, size):
            page += 1
            ids = [s.id for s in batch]
            genre_map = repository.genres_by_series(session=session, series_ids=ids)
            stats = repository.chapter_stats(session=session, series_ids=ids)
            items = [_item(s, genre_map[s.id], stats[s.id], media_base_url) for s in batch]
            path = out_dir / f"mangas_{page}.json"
            _write_json(path, {"list": items}, only_if_changed=page > 1, gzipped=True)
            removed += manifests.publish_batch(session, batch, media_base_url)
            slugs.update(s.slug for s in batch)
            series_count += len(batch)
        removed += _remove_stale_pages(out_dir, page) + _remove_stale_series(
            out_dir / "manifests", slugs
        )
        manifests.finish()
    finally:
        manifests.abort()
    counts = {"series": series_count, "pages": page, "manifests": manifests.count, "genres": len(genres)}
    written = [out_dir / "genres.json", *(out_dir / f"mangas_{n}.json" for n in range(1, page + 1))]
    publish_record.remember(out_dir, source=source, result=counts,
                            files=[twin for path in written for twin in (path, path.with_name(path.name + ".gz"))])
    return PublishResult(out_dir, **counts, removed=removed, rewritten=manifests.rewritten)


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


def _listed_series(session: Session, size: int) -> Iterator[Sequence[sa.Row]]:
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


def _item(series: sa.Row, genres: list[str], stats: tuple[int, int], base: str) -> dict:
    """One list entry: what the backend's held catalogue and search read, nothing more.

    Every backend process downloads, parses and holds all entries, so what
    the list does not need stays out of it: the summary, artists and reading
    direction are on the title page (read from the database), and readings
    carry each form once (see _distinct_readings).
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
        "readings": _distinct_readings(series),
    }


_KATAKANA = str.maketrans({chr(c): chr(c + 0x60) for c in range(ord("ぁ"), ord("ゖ") + 1)})


def _distinct_readings(series: sa.Row) -> list[dict]:
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


class _ManifestWriter:
    """Encrypted chapter manifests, rewritten only when their page list changed.

    The index is JSON lines: a header, then one `[slug, {file: [digest, size,
    mtime_ns]}]` line per series. The previous index is kept as unparsed lines
    (parsed one series at a time) and the new one is streamed to a temp file,
    so memory does not grow with the number of manifests.
    """

    def __init__(self, root: Path, key: str) -> None:
        self.root, self.key = root, key
        self.secret = decode_key(key)
        self.previous = _load_index(root / MANIFEST_INDEX)  # None: scan folders instead
        self.count = self.rewritten = 0
        self._temp: Path | None = None
        self._out = None
        # From here until finish() the index is absent: an interrupted publish
        # must not leave an index that describes files it did not write.
        (root / MANIFEST_INDEX).unlink(missing_ok=True)

    def publish_batch(self, session: Session, batch: Sequence[sa.Row], base: str) -> int:
        """Write one encrypted manifest per chapter of a batch; returns stale files removed.

        Two queries per batch (chapters, then their pages through a join rather
        than a huge IN list), whatever the number of chapters.
        """
        slug_of = {s.id: s.slug for s in batch}
        in_batch = Chapter.series_id.in_(list(slug_of))
        chapters = session.exec(
            select(Chapter.id, Chapter.series_id, Chapter.number_hundredths, Chapter.spread_offset).where(in_batch)
        ).all()
        pages: dict[int, list[dict]] = {chapter_id: [] for chapter_id, _, _, _ in chapters}
        rows = session.exec(
            select(Page.chapter_id, Page.media_key, Page.width, Page.height)
            .join(Chapter, Chapter.id == Page.chapter_id)
            .where(in_batch)
            .order_by(Page.chapter_id, Page.index)
        )
        for chapter_id, media_key, width, height in rows:
            pages[chapter_id].append(manifest_page(base, media_key, width, height))
        by_series: dict[int, list[tuple[int, int]]] = {series_id: [] for series_id in slug_of}
        for chapter_id, series_id, number, offset in chapters:
            by_series[series_id].append((chapter_id, number))
            if pages[chapter_id]:
                pages[chapter_id][0]["spread_offset"] = bool(offset)
        removed = 0
        for series_id, slug in slug_of.items():
            known = self._previous_entries(slug)
            entries: dict[str, list] = {}
            for chapter_id, number in by_series[series_id]:
                name = f"{format_hundredths(number)}.json"
                plaintext = json.dumps(
                    pages[chapter_id], ensure_ascii=False, separators=(",", ":")
                )
                entries[name] = self._write(slug, name, plaintext, known.get(name))
            self.count += len(entries)
            removed += self._remove_stale(slug, entries, known)
            self._record(slug, entries)
        return removed

    def _previous_entries(self, slug: str) -> dict[str, list]:
        if self.previous is None or slug not in self.previous:
            return {}
        try:
            _, entries = json.loads(self.previous[slug])
        except (ValueError, TypeError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def _write(self, slug: str, name: str, plaintext: str, known: list | None) -> list:
        path = self.root / slug / name
        digest = hmac.new(self.secret, plaintext.encode("utf-8"), hashlib.sha256).hexdigest()[:32]
        if isinstance(known, list) and len(known) == 3 and known[0] == digest:
            try:
                info = path.stat()
                if [info.st_size, info.st_mtime_ns] == known[1:]:
                    return known  # the same page list, and the file we wrote for it
            except OSError:
                pass
        data, iv = encrypt_text(plaintext, self.key)
        _write_json(path, {"iv": iv, "data": data})
        self.rewritten += 1
        info = path.stat()
        return [digest, info.st_size, info.st_mtime_ns]

    def _remove_stale(self, slug: str, entries: dict[str, list], known: dict[str, list]) -> int:
        """Manifests of this series whose chapter is gone."""
        if self.previous is not None:
            candidates = [self.root / slug / name for name in known]
        else:  # no trustworthy index: look at the folder itself
            candidates = list((self.root / slug).glob("*.json"))
        removed = 0
        for path in candidates:
            if path.name not in entries and path.exists():
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def _record(self, slug: str, entries: dict[str, list]) -> None:
        if self._out is None:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".jsonl", dir=self.root)
            self._temp, self._out = Path(temp), os.fdopen(fd, "w", encoding="utf-8")
            self._out.write(json.dumps({"version": _INDEX_VERSION}) + "\n")
        line = json.dumps([slug, entries], ensure_ascii=False, separators=(",", ":"))
        self._out.write(line + "\n")

    def finish(self) -> None:
        """Put the index in place: it describes exactly the manifests now on disk."""
        if self._out is not None:
            self._out.close()
            os.chmod(self._temp, 0o644)
            os.replace(self._temp, self.root / MANIFEST_INDEX)
            self._out = self._temp = None

    def abort(self) -> None:
        if self._out is not None:
            self._out.close()
            self._temp.unlink(missing_ok=True)
            self._out = self._temp = None


def _load_index(path: Path) -> dict[str, str] | None:
    """slug -> its unparsed index line; None when there is no usable index."""
    try:
        with path.open(encoding="utf-8") as handle:
            header = json.loads(handle.readline())
            if not isinstance(header, dict) or header.get("version") != _INDEX_VERSION:
                return None
            lines: dict[str, str] = {}
            for line in handle:
                # '["slug",{...}]': the slug is the first JSON string of the line.
                end = line.find('",', 2)
                if line.startswith('["') and end > 2:
                    lines[line[2:end]] = line
            return lines
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def _remove_stale_pages(out_dir: Path, last_page: int) -> int:
    removed = 0
    for path in out_dir.glob("mangas_*.json*"):
        match = _PAGE_FILE.match(path.name)
        if match and int(match.group(1)) > last_page:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def _remove_stale_series(root: Path, slugs: set[str]) -> int:
    removed = 0
    if root.is_dir():
        with os.scandir(root) as entries:
            stale = [e.path for e in entries if e.is_dir() and e.name not in slugs]
        for folder in map(Path, stale):
            removed += sum(1 for _ in folder.glob("*.json"))
            shutil.rmtree(folder)
    return removed


def _write_json(
    path: Path, value: object, *, only_if_changed: bool = False, gzipped: bool = False
) -> None:
    """Write `value` as compact UTF-8 JSON (and its `.gz` twin), each file atomically.

    The twin is written first: a client never gets a gzip copy older than
    the plain file it could have fetched instead.
    """
    content = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    twin = path.with_name(path.name + ".gz")
    if only_if_changed and _same_content(path, content) and (not gzipped or twin.exists()):
        return  # keeps its mtime and ETag, so caches stay valid
    if gzipped:
        # mtime=0: the same JSON always gives the same bytes.
        _write_atomic(twin, gzip.compress(content, compresslevel=GZIP_LEVEL, mtime=0))
    _write_atomic(path, content)


def _write_atomic(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.chmod(temp, 0o644)  # mkstemp makes 0600; published files are public
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _same_content(path: Path, content: bytes) -> bool:
    try:
        if path.stat().st_size != len(content):
            return False
        return path.read_bytes() == content
    except OSError:
        return False
