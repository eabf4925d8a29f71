"""Content-addressed media store: originals, reader derivatives and cover thumbnails.

A page's media key is the sha256 of its original bytes. Every file lives at
`<2 hex>/<key><suffix>` under the media root, so names never change once
written (CDN-cacheable forever) and a file that exists is never rewritten.
Derivative names come from the source key plus a variant suffix, so a
re-import knows they exist without decoding the image again.

Each image is decoded once and every size is derived from that one decode
(JPEGs are decoded directly at a reduced scale with `Image.draft` when the
largest derivative is at most half as wide); derivatives of the same size are
encoded once. Writes are atomic (temp file + os.replace) and recorded in a
WriteLog so a failed chapter can remove exactly the files it created.

Derivatives show the page as it looks on paper: 16-bit pages scaled to 8
bits, CMYK and palettes converted, transparency flattened onto white, and
an animation reduced to its first frame (PageWrite.note says so).

Pages are turned upright first (EXIF orientation), so recorded sizes and
derivatives show what a photo viewer shows. Every page and cover is AVIF
(at the reader and data-saver widths), with
a fallback for browsers without AVIF: JPEG at the reader width, WebP for
data-saver derivatives and covers; near-grey pages are one channel. The
WebP ones become JPEG when taller (or wider) than WebP can encode (16,383 px, a long
webtoon strip; such a strip has no AVIF either), up to 65,535 px, so the strip keeps its
width instead of shrinking to a sliver. Cover
thumbnails show at most the top of a page twice as tall as it is wide.

`store_page_detached` is the same work packaged for a worker process: it
takes and returns only picklable values and never raises for a bad image.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from manga_app.catalogue.media_paths import (
    avif_path,
    cover_path,
    cover_targets,
    hidpi_path,
    original_path,
    page_targets,
    reader_path,
    saver_path,
)
from manga_app.catalogue.page_images import (
    FORMATS,
    MAX_IMAGE_PIXELS,
    SWAPS_SIDES,
    MediaError,
    checked_open,
    cover_crop,
    decode,
    derivative_ext,
    derivative_size,
    encode_all,
    orientation_of,
)
from manga_app.catalogue.publish_files import TEMPORARY_PREFIX

__all__ = [
    "AVIF_MARKER",
    "MAX_IMAGE_PIXELS",
    "MediaError",
    "MediaStore",
    "PageWrite",
    "StoredImage",
    "WriteLog",
    "avif_path",
    "cover_path",
    "cover_targets",
    "derivative_ext",
    "derivative_size",
    "hidpi_path",
    "original_path",
    "page_targets",
    "reader_path",
    "saver_path",
    "store_page_detached",
]



@dataclass(frozen=True)
class StoredImage:
    key: str
    ext: str
    width: int
    height: int
    bytes: int


@dataclass
class WriteLog:
    """Files created during one chapter's import (removed again if it fails)."""

    created: list[Path] = field(default_factory=list)


@dataclass(frozen=True)
class PageWrite:
    """What a worker did with one page: the stored image or why not, and the files it created.
    `note`: something the operator should know about a page that was stored
    (an animation reduced to its first frame).
    """

    stored: StoredImage | None
    error: str | None
    created: tuple[str, ...]
    note: str | None = None
    full: bool = False  # the write failed because the media store's disk is full


# Every page and cover has its AVIF copies (a new store, or `reencode` done): manifests may name them.
AVIF_MARKER = ".avif-v1"


class MediaStore:
    """`avif` False (import --defer-avif): JPEG and WebP copies only; reencode adds the AVIF ones.
    `hidpi` (reencode's): pages get their high-DPI AVIF too."""

    def __init__(self, root: Path, *, avif: bool = True, hidpi: bool = False) -> None:
        self.root, self.avif, self.hidpi = Path(root), avif, hidpi

    def has_avif(self) -> bool:
        return (self.root / AVIF_MARKER).exists()

    def mark_avif(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / AVIF_MARKER).touch()

    def path(self, rel: str) -> Path:
        return self.root / rel

    def store_page(self, data: bytes, log: WriteLog, *, cover: bool = False) -> StoredImage:
        """Keep the original and write the reader and data-saver derivatives once.

        With `cover`, the cover thumbnails are derived from the same decode.
        """
        key = hashlib.sha256(data).hexdigest()
        return self._store(key, data, log, page=True, cover=cover)

    @staticmethod
    def page_note(data: bytes) -> str | None:
        """What the operator should hear about a page (an animation), else None."""
        with checked_open(data) as image:
            frames = getattr(image, "n_frames", 1)
            if frames > 1:
                return (
                    f"animated {image.format} page ({frames} frames): "
                    "only its first frame is published"
                )
        return None

    def store_cover(self, data: bytes, log: WriteLog) -> str:
        """Keep a cover source and its thumbnails; returns its key."""
        key = hashlib.sha256(data).hexdigest()
        self._store(key, data, log, page=False, cover=True)
        return key

    def has_cover(self, key: str) -> bool:
        return all(self.path(rel).exists() for rel, _ in cover_targets(key, avif=self.avif))

    def remove_created(self, log: WriteLog) -> None:
        for path in reversed(log.created):
            path.unlink(missing_ok=True)
            _remove_if_empty(path.parent)
        log.created.clear()

    def remove_image(self, key: str) -> None:
        """Delete the original and every derivative of one source image (no longer referenced)."""
        if len(key) != 64 or not all(c in "0123456789abcdef" for c in key):
            raise ValueError(f"not a media key: {key!r}")
        folder = self.root / key[:2]
        for path in folder.glob(f"{key}*"):
            path.unlink(missing_ok=True)
        _remove_if_empty(folder)

    def _store(
        self, key: str, data: bytes, log: WriteLog, *, page: bool, cover: bool
    ) -> StoredImage:
        with checked_open(data) as image:
            ext = FORMATS.get(image.format or "")
            if ext is None:
                raise MediaError(f"unsupported image format {image.format}")
            orientation = orientation_of(image)
            width, height = image.size
            if orientation in SWAPS_SIDES:
                width, height = height, width
            stored = StoredImage(key=key, ext=ext, width=width, height=height, bytes=len(data))
            # rel -> (size, whether it shows only the top of the page)
            wanted: dict[str, tuple[tuple[int, int], bool]] = {}
            if page:
                for rel, max_width in page_targets(key, width, height, avif=self.avif, hidpi=self.hidpi):
                    wanted[rel] = (derivative_size(width, height, max_width), False)
            if cover:
                top = cover_crop(width, height)
                for rel, max_width in cover_targets(key, avif=self.avif):
                    wanted[rel] = (derivative_size(*top, max_width), top != (width, height))
            original = original_path(key, ext)
            missing = {rel: job for rel, job in wanted.items() if not self.path(rel).exists()}
            if not missing and self.path(original).exists():
                # Same bytes as a file already stored (and decoded then): nothing to do.
                return stored
            largest = max((size for size, _ in missing.values()), default=(1, 1))
            upright = decode(image, largest, orientation)
            self._write_once(original, data, log)
            for rel, content in encode_all(upright, missing).items():
                self._write_once(rel, content, log)
        return stored

    def _write_once(self, rel: str, content: bytes, log: WriteLog) -> None:
        target = self.path(rel)
        if target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=TEMPORARY_PREFIX, dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        log.created.append(target)


def store_page_detached(root: str, data: bytes, cover: bool = False, log: WriteLog | None = None,
                        avif: bool = True, hidpi: bool = False) -> PageWrite:
    """`MediaStore(root).store_page` for a worker process.

    Never raises for a bad image or a failed write: the error is returned with
    the files created so far, and the caller decides when they may be removed
    (another chapter being imported at the same time may already rely on them).
    In the caller's own process, `log` lets it see the files as they are
    written, should it be interrupted before this returns.
    """
    log = log if log is not None else WriteLog()
    note, error, full = None, None, False
    try:
        stored = MediaStore(Path(root), avif=avif, hidpi=hidpi).store_page(data, log, cover=cover)
        note = MediaStore.page_note(data)
    except MediaError as exc:
        stored, error = None, str(exc)
    except OSError as exc:
        full = exc.errno in (errno.ENOSPC, errno.EDQUOT)
        stored, error = None, (f"the media store {root} is full ({exc.strerror})" if full
                               else f"cannot write to the media store: {exc}")
    except Exception as exc:  # noqa: BLE001 - reported as this page's failure
        stored, error = None, f"unexpected error: {type(exc).__name__}: {exc}"
    return PageWrite(stored, error, tuple(str(path) for path in log.created), note, full)


def _remove_if_empty(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not empty, or already gone
        folder.rmdir()
