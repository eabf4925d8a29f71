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

`store_page_detached` is the same work packaged for a worker process: it
takes and returns only picklable values and never raises for a bad image.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, UnidentifiedImageError

__all__ = [
    "MAX_IMAGE_PIXELS",
    "MediaError",
    "MediaStore",
    "PageWrite",
    "StoredImage",
    "WEBP_METHOD",
    "WEBP_QUALITY",
    "WriteLog",
    "cover_path",
    "cover_targets",
    "derivative_size",
    "encode_webp",
    "original_path",
    "page_targets",
    "reader_path",
    "saver_path",
    "store_page_detached",
    "webp_frame",
]

# Explicit, not Pillow's default: a tall webtoon strip (1000 x 60000) passes,
# a 100000 x 100000 decompression bomb does not.
MAX_IMAGE_PIXELS = 80_000_000
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

READER_WIDTH = 1200
SAVER_WIDTH = 720
COVER_WIDTHS = (320, 160)
WEBP_MAX_SIDE = 16_383  # the WebP format cannot encode more
# libwebp's method 2 encodes about twice as fast as its default 4 for ~5 % more
# bytes at the same quality setting (measured on the demo pages: 20 ms against
# 42 ms per 720x1024 page, 45.7 KiB against 43.4 KiB, PSNR 44.6 against 45.2 dB).
WEBP_QUALITY = 80
WEBP_METHOD = 2
_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}
_RESIZABLE_MODES = ("L", "RGB", "RGBA")  # resized as they are; others are converted first


class MediaError(Exception):
    """An image that cannot be used; the message says why."""


def _rel(key: str, suffix: str) -> str:
    return f"{key[:2]}/{key}{suffix}"


def original_path(key: str, ext: str) -> str:
    return _rel(key, f".{ext}")


def reader_path(key: str) -> str:
    return _rel(key, f"-w{READER_WIDTH}.webp")


def saver_path(key: str) -> str:
    return _rel(key, f"-w{SAVER_WIDTH}.webp")


def cover_path(key: str, width: int = COVER_WIDTHS[0]) -> str:
    return _rel(key, f"-cover{width}.webp")


def page_targets(key: str) -> list[tuple[str, int]]:
    """(relative path, max width) of the reader derivatives of a page."""
    return [(reader_path(key), READER_WIDTH), (saver_path(key), SAVER_WIDTH)]


def cover_targets(key: str) -> list[tuple[str, int]]:
    return [(cover_path(key, width), width) for width in COVER_WIDTHS]


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
    """What a worker did with one page: the stored image or why not, and the files it created."""

    stored: StoredImage | None
    error: str | None
    created: tuple[str, ...]


class MediaStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, rel: str) -> Path:
        return self.root / rel

    def store_page(self, data: bytes, log: WriteLog, *, cover: bool = False) -> StoredImage:
        """Keep the original and write the reader and data-saver WebPs once.

        With `cover`, the cover thumbnails are derived from the same decode.
        """
        key = hashlib.sha256(data).hexdigest()
        targets = page_targets(key) + (cover_targets(key) if cover else [])
        return self._store(key, data, targets, log)

    def store_cover(self, data: bytes, log: WriteLog) -> str:
        """Keep a cover source and its thumbnails; returns its key."""
        key = hashlib.sha256(data).hexdigest()
        self._store(key, data, cover_targets(key), log)
        return key

    def has_cover(self, key: str) -> bool:
        return all(self.path(rel).exists() for rel, _ in cover_targets(key))

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
        self, key: str, data: bytes, targets: list[tuple[str, int]], log: WriteLog
    ) -> StoredImage:
        with _checked_open(data) as image:
            ext = _FORMATS.get(image.format or "")
            if ext is None:
                raise MediaError(f"unsupported image format {image.format}")
            width, height = image.size
            stored = StoredImage(key=key, ext=ext, width=width, height=height, bytes=len(data))
            original = original_path(key, ext)
            missing = [(rel, w) for rel, w in targets if not self.path(rel).exists()]
            if not missing and self.path(original).exists():
                # Same bytes as a file already stored (and decoded then): nothing to do.
                return stored
            sizes = {rel: derivative_size(width, height, w) for rel, w in missing}
            _decode(image, max(sizes.values(), default=(1, 1)))
            self._write_once(original, data, log)
            encoded: dict[tuple[int, int], bytes] = {}
            frame = image
            for rel, size in sorted(sizes.items(), key=lambda item: -item[1][0]):
                if size not in encoded:
                    frame = webp_frame(frame, size)  # each size from the next larger one
                    encoded[size] = encode_webp(frame)
                self._write_once(rel, encoded[size], log)
        return stored

    def _write_once(self, rel: str, content: bytes, log: WriteLog) -> None:
        target = self.path(rel)
        if target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        log.created.append(target)


def store_page_detached(root: str, data: bytes, cover: bool = False) -> PageWrite:
    """`MediaStore(root).store_page` for a worker process.

    Never raises for a bad image or a failed write: the error is returned with
    the files created so far, and the caller decides when they may be removed
    (another chapter being imported at the same time may already rely on them).
    """
    log = WriteLog()
    try:
        stored = MediaStore(Path(root)).store_page(data, log, cover=cover)
        error = None
    except MediaError as exc:
        stored, error = None, str(exc)
    except OSError as exc:
        stored, error = None, f"cannot write to the media store: {exc}"
    except Exception as exc:  # noqa: BLE001 - reported as this page's failure
        stored, error = None, f"unexpected error: {type(exc).__name__}: {exc}"
    return PageWrite(stored, error, tuple(str(path) for path in log.created))


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty, or already gone


@contextmanager
def _checked_open(data: bytes) -> Iterator[Image.Image]:
    """Image.open with decompression-bomb warnings as errors and errors as MediaError."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise MediaError(f"decompression bomb refused: {exc}") from None
        except UnidentifiedImageError:
            raise MediaError("not a readable image") from None
        except (OSError, SyntaxError, ValueError) as exc:
            raise MediaError(f"corrupt image: {exc}") from None
    with image:
        yield image


def _decode(image: Image.Image, largest: tuple[int, int]) -> None:
    """Decode fully (so truncated files fail here); JPEGs at the smallest scale still large enough."""
    if image.format == "JPEG" and largest[0] * 2 <= image.width:
        image.draft(None, largest)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise MediaError(f"decompression bomb refused: {exc}") from None
        except (OSError, SyntaxError, ValueError) as exc:
            raise MediaError(f"corrupt image: {exc}") from None


def derivative_size(width: int, height: int, max_width: int) -> tuple[int, int]:
    """Size of a WebP derivative: at most `max_width` wide, never enlarged, aspect kept."""
    scale = min(1.0, max_width / width, WEBP_MAX_SIDE / height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def webp_frame(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """`image` in a mode WebP encodes (RGB, or RGBA when it has transparency), at `size`.

    Greyscale pages are resized before they are expanded to RGB (a third of the work).
    """
    has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    if image.mode not in _RESIZABLE_MODES or (has_alpha and image.mode != "RGBA"):
        image = image.convert("RGBA" if has_alpha else "RGB")
    if image.size != size:
        image = image.resize(size, Image.Resampling.LANCZOS)
    return image


def encode_webp(frame: Image.Image) -> bytes:
    out = io.BytesIO()
    frame.save(out, format="WEBP", quality=WEBP_QUALITY, method=WEBP_METHOD)
    return out.getvalue()
