"""Publish the catalogue as static files: genres.json, mangas_{page}.json, encrypted manifests.

Output is streamed page by page (keyset batches of PAGE_SIZE series), so
memory stays flat at 100,000 series. Every file is written atomically, and
files that no longer apply (pages past the new last page, manifests of
removed chapters or series) are deleted only after the new ones are in place,
so a reader never sees a half-published catalogue. One publish runs at a
time into a folder (publish_files.publishing: a lock that dies with its
process), and the next one removes the temporary files of one that was
killed (`kill -9` at any point leaves every served file whole:
tests/unit/catalogue/test_publish_crash.py).

Publishing again builds on the last publish (publish_record.py) with what
the database logged as changed since (changes.py: its triggers note every
series whose rows changed). Nothing changed: nothing is written. Otherwise
only the list pages holding changed series are rebuilt (pages list series in
id order, so a change stays on its page; the pages after it follow only when
series came or went), with those series' manifests. Without a record to
trust (first publish, other settings or key, files altered by hand, an
interrupted publish) everything is published again.

A manifest whose page list is unchanged is never encrypted and written
again. `manifests/.index.json` records, per manifest, a keyed digest of its
plaintext (HMAC with the content key, so a new key re-encrypts everything
and the index reveals nothing) and the size and mtime of the file written
for it. The index is removed while a publish runs and written at its end,
so an interrupted publish makes the next one start from scratch. List pages
after the first are only rewritten when their bytes change; genres.json and
mangas_1.json are rewritten by every publish that found a change, since the
backend's held catalogue notices a new publish by their validators.

Every list page and genres.json gets a gzip twin (`mangas_1.json.gz`,
written atomically beside it, deterministic bytes) that the web layer sends
to clients accepting gzip: compressing a 600 KB page on every request costs
the server more than anything else it does for the backend's loader.

A manifest decrypts to the chapter's page list, `[{url, saver_url, width,
height}, ...]` in reading order; its first page also carries the chapter's
`spread_offset` (bool: double-page view shows the first page alone so that
the spreads start pairs, see spreads.py). With `avif` (the media store holds
every page's AVIF: media.AVIF_MARKER), pages also carry `avif` and
`saver_avif` (none for a strip too tall for AVIF).
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session, select

from manga_app.catalogue import changes, publish_record, repository
from manga_app.catalogue.media import MediaStore
from manga_app.core.config import Settings, content_key
from manga_app.core.content_key import validate_content_key
from manga_app.catalogue.models import Series
from manga_app.core.crypto import decode_key
from manga_app.catalogue.publish_files import publishing, write_json
from manga_app.catalogue.publish_lists import ListPages
from manga_app.catalogue.publish_manifests import INDEX_VERSION, MANIFEST_INDEX, ManifestWriter, remove_stale_series

__all__ = ["PAGE_SIZE", "PublishResult", "publish_catalogue", "publish_site"]

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
    # Series the change log named since the last publish; None: everything was published.
    changed: int | None = None


def publish_catalogue(
    *,
    session: Session,
    out_dir: Path,
    content_key: str,
    media_base_url: str,
    page_size: int | None = None,
    avif: bool = False,
) -> PublishResult:
    """Write the whole published catalogue into `out_dir` (see the module docstring)."""
    key = validate_content_key(content_key)
    out_dir = Path(out_dir)
    with publishing(out_dir):
        return _publish(session, out_dir, key, media_base_url, page_size or PAGE_SIZE, avif)


def publish_site(*, session: Session, settings: Settings) -> PublishResult:
    """The site's own publish, as the console and a restore run it: its key,
    folder and media URL from the settings, and AVIF when the media store holds
    it (publishing without it would drop AVIF from every manifest)."""
    return publish_catalogue(session=session, out_dir=settings.published_dir, content_key=content_key(settings),
                             media_base_url=settings.media_base_url, avif=MediaStore(settings.media_dir).has_avif())


def _publish(session: Session, out_dir: Path, key: str, media_base_url: str, size: int, avif: bool) -> PublishResult:
    # AVIF named or not: a change rewrites every manifest (the store gained them all).
    settings = publish_record.settings_digest(decode_key(key), media_base_url=media_base_url, page_size=size,
                                              avif=avif)
    # Whether the last publish's files are intact (stat()s: the GIL is free)
    # is checked while the database's change log is taken.
    with ThreadPoolExecutor(1) as pool:
        last = pool.submit(publish_record.in_place, out_dir, manifest_index=out_dir / "manifests" / MANIFEST_INDEX,
                           index_version=INDEX_VERSION)
        taken = changes.take(session)
        record = publish_record.trusted(last.result(), settings=settings, token=taken.previous_token)
    if record is not None and taken.nothing:
        return PublishResult(out_dir, **record["result"], removed=0, rewritten=0, changed=0)
    publish_record.forget(out_dir)
    manifests = ManifestWriter(out_dir / "manifests", key, avif)
    genres = [
        {"name": name, "total": total} for name, total in repository.genre_totals(session=session)
    ]
    write_json(out_dir / "genres.json", genres, gzipped=True)
    lists = ListPages(session, out_dir, manifests, media_base_url, size)
    try:
        if record is None:
            lists.publish_all()
            removed = remove_stale_series(out_dir / "manifests", lists.slugs)
        else:
            lists.publish_changed(record["bounds"], taken.series_ids)
            removed = manifests.remove_series(_unlisted(session, taken, lists.slugs))
            manifests.carry_over(previous_count=record["result"]["manifests"])
        removed += lists.removed + _remove_stale_pages(out_dir, len(lists.bounds))
        manifests.finish()
    finally:
        manifests.abort()
    pages = len(lists.bounds)
    counts = {"series": sum(count for _, count in lists.bounds), "pages": pages,
              "manifests": manifests.count, "genres": len(genres)}
    written = [out_dir / "genres.json", *(out_dir / f"mangas_{n}.json" for n in range(1, pages + 1))]
    publish_record.remember(out_dir, settings=settings, token=taken.token, bounds=lists.bounds, result=counts,
                            files=[twin for path in written for twin in (path, path.with_name(path.name + ".gz"))])
    return PublishResult(out_dir, **counts, removed=removed, rewritten=manifests.rewritten,
                         changed=None if record is None else len(taken.series_ids))


def _unlisted(session: Session, taken: changes.Taken, listed: set[str]) -> set[str]:
    """Slugs that may have published manifests but are not listed now: of
    series deleted, renamed or left without chapters since the last publish."""
    current = session.exec(select(Series.slug).where(Series.id.in_(list(taken.series_ids)))).all()
    return (set(current) | taken.gone_slugs) - listed


def _remove_stale_pages(out_dir: Path, last_page: int) -> int:
    removed = 0
    for path in out_dir.glob("mangas_*.json*"):
        match = _PAGE_FILE.match(path.name)
        if match and int(match.group(1)) > last_page:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
