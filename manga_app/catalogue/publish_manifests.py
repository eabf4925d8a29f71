"""The encrypted chapter manifests: each chapter's page list encrypted with
the content key, an HMAC-keyed index so unchanged ones are not written again,
and the removal of manifests of chapters and series that are gone."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue.media_paths import avif_path, hidpi_path, reader_path, saver_path
from manga_app.catalogue.page_images import READER_WIDTH, SAVER_WIDTH, derivative_size
from manga_app.catalogue.models import Chapter, Page
from manga_app.catalogue.naming import format_hundredths
from manga_app.core import routes
from manga_app.core.crypto import decode_key, encrypt_text
from manga_app.catalogue.publish_files import TEMPORARY_PREFIX, media_url, write_json


MANIFEST_INDEX = ".index.json"
# 2: volumes named `{n}-vol.json` (1 named them by their key): an index of
# another version is not trusted, so the next publish writes every manifest
# under its name and removes the files the folder holds under any other.
INDEX_VERSION = 2


_AVIF_FIELDS = (("avif", READER_WIDTH), ("saver_avif", SAVER_WIDTH))


def manifest_page(base: str, media_key: str, width: int, height: int, avif: bool = False,
                  hidpi: bool = False) -> dict:
    """One page as the reader's manifest lists it: the reader and data-saver
    URLs (JPEG and WebP, which every browser shows) and the reader image's size
    (`width` x `height`: the page as recorded); with `avif` (the media store
    holds them), the AVIF copies the page has at both widths, and with `hidpi`
    (page.hidpi: reencode wrote it) its high-DPI AVIF, `hidpi_avif`."""
    reader_w, reader_h = derivative_size(width, height, READER_WIDTH)
    page = {
        "url": media_url(base, reader_path(media_key, width, height)),
        "saver_url": media_url(base, saver_path(media_key, width, height)),
        "width": reader_w,
        "height": reader_h,
    }
    for field, max_width in _AVIF_FIELDS if avif else ():
        rel = avif_path(media_key, width, height, max_width)
        if rel is not None:
            page[field] = media_url(base, rel)
    if avif and hidpi and (rel := hidpi_path(media_key, width, height)) is not None:
        page["hidpi_avif"] = media_url(base, rel)
    return page


class ManifestWriter:
    """Encrypted chapter manifests, rewritten only when their page list changed.

    The index is JSON lines: a header, then one `[slug, {file: [digest, size,
    mtime_ns]}]` line per series. The previous index is kept as unparsed lines
    (parsed one series at a time) and the new one is streamed to a temp file,
    so memory does not grow with the number of manifests.
    """

    def __init__(self, root: Path, key: str, avif: bool = False) -> None:
        self.root, self.key, self.avif = root, key, avif
        self.secret = decode_key(key)
        self.previous = load_index(root / MANIFEST_INDEX)  # None: scan folders instead
        self.count = self.rewritten = 0
        self._recorded: set[str] = set()
        self._dropped: set[str] = set()
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
            select(Page.chapter_id, Page.media_key, Page.width, Page.height, Page.hidpi)
            .join(Chapter, Chapter.id == Page.chapter_id)
            .where(in_batch)
            .order_by(Page.chapter_id, Page.index)
        )
        for chapter_id, media_key, width, height, hidpi in rows:
            pages[chapter_id].append(manifest_page(base, media_key, width, height, self.avif, hidpi))
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
                name = f"{routes.unit_segment(format_hundredths(number))}.json"  # as routes.manifest_path
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
        write_json(path, {"iv": iv, "data": data})
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

    def remove_series(self, slugs: set[str]) -> int:
        """Remove every manifest of series no longer listed; returns the files removed."""
        self._dropped.update(slugs)
        return sum(_remove_folder(self.root / slug) for slug in slugs if (self.root / slug).is_dir())

    def carry_over(self, *, previous_count: int) -> None:
        """Keep the index lines of the series this publish left alone (their
        manifests are the ones the last publish wrote and checked in place)."""
        replaced = self._recorded | self._dropped
        left_out = 0
        for slug, line in (self.previous or {}).items():
            if slug in replaced:
                left_out += len(self._previous_entries(slug))
            else:
                self._line(line.rstrip("\n"))
        self.count += previous_count - left_out

    def _record(self, slug: str, entries: dict[str, list]) -> None:
        self._recorded.add(slug)
        self._line(json.dumps([slug, entries], ensure_ascii=False, separators=(",", ":")))

    def _line(self, line: str) -> None:
        self._open().write(line + "\n")

    def _open(self):
        if self._out is None:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, suffix=".jsonl", dir=self.root)
            self._temp, self._out = Path(temp), os.fdopen(fd, "w", encoding="utf-8")
            self._out.write(json.dumps({"version": INDEX_VERSION}) + "\n")
        return self._out

    def finish(self) -> None:
        """Put the index in place: it describes exactly the manifests now on disk."""
        self._open().close()
        if self._temp is not None:
            os.chmod(self._temp, 0o644)
            os.replace(self._temp, self.root / MANIFEST_INDEX)
            self._out = self._temp = None

    def abort(self) -> None:
        if self._out is not None:
            self._out.close()
            self._temp.unlink(missing_ok=True)
            self._out = self._temp = None


def load_index(path: Path) -> dict[str, str] | None:
    """slug -> its unparsed index line; None when there is no usable index."""
    try:
        with path.open(encoding="utf-8") as handle:
            header = json.loads(handle.readline())
            if not isinstance(header, dict) or header.get("version") != INDEX_VERSION:
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


def remove_stale_series(root: Path, slugs: set[str]) -> int:
    removed = 0
    if root.is_dir():
        with os.scandir(root) as entries:
            stale = [e.path for e in entries if e.is_dir() and e.name not in slugs]
        removed = sum(_remove_folder(Path(folder)) for folder in stale)
    return removed


def _remove_folder(folder: Path) -> int:
    """Remove a series' manifest folder; returns the manifests it held."""
    count = sum(1 for _ in folder.glob("*.json"))
    shutil.rmtree(folder)
    return count
