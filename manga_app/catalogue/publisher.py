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

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session

from manga_app.catalogue import publish_record, repository
from manga_app.core.content_key import validate_content_key
from manga_app.core.crypto import decode_key
from manga_app.catalogue.publish_files import write_json
from manga_app.catalogue.publish_lists import list_item, listed_series
from manga_app.catalogue.publish_manifests import INDEX_VERSION, MANIFEST_INDEX, ManifestWriter, remove_stale_series

__all__ = ["PAGE_SIZE", "PublishResult", "publish_catalogue"]

# Series per list page. Large pages keep the backend's page-by-page loading of
# 100,000 series to ~100 requests (about 1 MB each, gzip shrinks them ~5x).
PAGE_SIZE = 1000
_PAGE_FILE = re.compile(r"^mangas_(\d+)\.json(?:\.gz)?$")


@dataclass(frozen=True)
class PublishResult:
    out_dir: Path
    series: int
    pages: int
    manifests: int
    genres: int
    removed: int
    rewritten: int = 0  # manifests encrypted and written by this publish (the rest were unchanged)


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
                           index_version=INDEX_VERSION)
        source = publish_record.catalogue_source(
            session=session, secret=decode_key(key), media_base_url=media_base_url, page_size=size
        )
        recorded = publish_record.unchanged(last.result(), source)
    if recorded is not None:
        return PublishResult(out_dir, **recorded, removed=0, rewritten=0)
    publish_record.forget(out_dir)
    manifests = ManifestWriter(out_dir / "manifests", key)
    genres = [
        {"name": name, "total": total} for name, total in repository.genre_totals(session=session)
    ]
    write_json(out_dir / "genres.json", genres, gzipped=True)
    page = series_count = removed = 0
    slugs: set[str] = set()
    try:
        for batch in listed_series(session, size):
            page += 1
            ids = [s.id for s in batch]
            genre_map = repository.genres_by_series(session=session, series_ids=ids)
            stats = repository.chapter_stats(session=session, series_ids=ids)
            items = [list_item(s, genre_map[s.id], stats[s.id], media_base_url) for s in batch]
            path = out_dir / f"mangas_{page}.json"
            write_json(path, {"list": items}, only_if_changed=page > 1, gzipped=True)
            removed += manifests.publish_batch(session, batch, media_base_url)
            slugs.update(s.slug for s in batch)
            series_count += len(batch)
        removed += _remove_stale_pages(out_dir, page) + remove_stale_series(
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


def _remove_stale_pages(out_dir: Path, last_page: int) -> int:
    removed = 0
    for path in out_dir.glob("mangas_*.json*"):
        match = _PAGE_FILE.match(path.name)
        if match and int(match.group(1)) > last_page:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
