"""Publish the catalogue as static files: genres.json, mangas_{page}.json, encrypted manifests.

Output is streamed page by page (keyset batches of PAGE_SIZE series), so
memory stays flat at 100,000 series. Every file is written atomically, and
files that no longer apply (pages past the new last page, manifests of
removed chapters or series) are deleted only after the new ones are in place,
so a reader never sees a half-published catalogue.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlmodel import Session, select

from manga_app.catalogue import repository
from manga_app.catalogue.keys import validate_content_key
from manga_app.catalogue.media import (
    READER_WIDTH,
    cover_path,
    derivative_size,
    reader_path,
    saver_path,
)
from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import chapter_number_json, format_chapter_number
from manga_app.crypto import encrypt_text

__all__ = ["PAGE_SIZE", "PublishResult", "iso_utc", "media_url", "publish_catalogue"]

PAGE_SIZE = 60
_PAGE_FILE = re.compile(r"^mangas_(\d+)\.json$")


@dataclass(frozen=True)
class PublishResult:
    out_dir: Path
    series: int
    pages: int
    manifests: int
    genres: int
    removed: int


def iso_utc(moment: datetime) -> str:
    """ISO 8601 in UTC with a 'Z', to the second: '2024-05-01T12:00:00Z'."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def media_url(base: str, rel: str) -> str:
    return f"{base.rstrip('/')}/{rel}"


def publish_catalogue(
    *, session: Session, out_dir: Path, content_key: str, media_base_url: str
) -> PublishResult:
    """Write the whole published catalogue into `out_dir` (see the module docstring)."""
    key = validate_content_key(content_key)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    genres = [
        {"name": name, "total": total} for name, total in repository.genre_totals(session=session)
    ]
    _write_json(out_dir / "genres.json", genres)
    page = series_count = manifest_count = removed = 0
    slugs: set[str] = set()
    for batch in repository.iter_series_batches(session=session, batch_size=PAGE_SIZE):
        page += 1
        ids = [s.id for s in batch]
        genre_map = repository.genres_by_series(session=session, series_ids=ids)
        stats = repository.chapter_stats(session=session, series_ids=ids)
        items = [_item(s, genre_map[s.id], stats[s.id], media_base_url) for s in batch]
        _write_json(out_dir / f"mangas_{page}.json", {"list": items})
        written, gone = _publish_manifests(
            session, batch, out_dir / "manifests", key, media_base_url
        )
        manifest_count += written
        removed += gone
        slugs.update(s.slug for s in batch)
        for series in batch:
            session.expunge(series)  # keep the identity map flat across 100,000 series
        series_count += len(batch)
    removed += _remove_stale_pages(out_dir, page) + _remove_stale_series(
        out_dir / "manifests", slugs
    )
    return PublishResult(out_dir, series_count, page, manifest_count, len(genres), removed)


def _item(series: Series, genres: list[str], stats: tuple[int, int], base: str) -> dict:
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
        "artists": list(series.artists),
        "summary": series.summary,
        "direction": series.direction,
        "chapters_count": count,
        "readings": [
            {k: r[k] for k in ("text", "hiragana", "katakana", "romaji")} for r in series.readings
        ],
        "romaji": [r["romaji"] for r in series.readings],
    }


def _publish_manifests(
    session: Session, batch: list[Series], root: Path, key: str, base: str
) -> tuple[int, int]:
    """Write one encrypted manifest per chapter of a batch; returns (written, stale removed).

    Two queries per batch (chapters, then their pages through a join rather
    than a huge IN list), whatever the number of chapters.
    """
    slug_of = {s.id: s.slug for s in batch}
    in_batch = Chapter.series_id.in_(list(slug_of))
    chapters = session.exec(
        select(Chapter.id, Chapter.series_id, Chapter.number_hundredths).where(in_batch)
    ).all()
    pages: dict[int, list[dict]] = {chapter_id: [] for chapter_id, _, _ in chapters}
    rows = session.exec(
        select(Page.chapter_id, Page.media_key, Page.width, Page.height)
        .join(Chapter, Chapter.id == Page.chapter_id)
        .where(in_batch)
        .order_by(Page.chapter_id, Page.index)
    )
    for chapter_id, media_key, width, height in rows:
        reader_w, reader_h = derivative_size(width, height, READER_WIDTH)
        pages[chapter_id].append(
            {
                "url": media_url(base, reader_path(media_key)),
                "saver_url": media_url(base, saver_path(media_key)),
                "width": reader_w,
                "height": reader_h,
            }
        )
    current: dict[str, set[str]] = {slug: set() for slug in slug_of.values()}
    for chapter_id, series_id, number in chapters:
        name = f"{format_chapter_number(number)}.json"
        plaintext = json.dumps(pages[chapter_id], ensure_ascii=False, separators=(",", ":"))
        data, iv = encrypt_text(plaintext, key)
        _write_json(root / slug_of[series_id] / name, {"iv": iv, "data": data})
        current[slug_of[series_id]].add(name)
    removed = 0
    for slug, names in current.items():
        for path in (root / slug).glob("*.json"):
            if path.name not in names:
                path.unlink(missing_ok=True)
                removed += 1
    return len(chapters), removed


def _remove_stale_pages(out_dir: Path, last_page: int) -> int:
    removed = 0
    for path in out_dir.glob("mangas_*.json"):
        match = _PAGE_FILE.match(path.name)
        if match and int(match.group(1)) > last_page:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def _remove_stale_series(root: Path, slugs: set[str]) -> int:
    removed = 0
    if root.is_dir():
        for folder in root.iterdir():
            if folder.is_dir() and folder.name not in slugs:
                removed += sum(1 for _ in folder.glob("*.json"))
                shutil.rmtree(folder)
    return removed


def _write_json(path: Path, value: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(value, handle, ensure_ascii=False, separators=(",", ":"))
        os.chmod(temp, 0o644)  # mkstemp makes 0600; published files are public
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
