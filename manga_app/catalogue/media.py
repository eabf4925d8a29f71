"""Content-addressed media store: originals, reader derivatives and cover thumbnails.

A page's media key is the sha256 of its original bytes. Every file lives at
`<2 hex>/<key><suffix>` under the media root, so names never change once
written (CDN-cacheable forever) and a file that exists is never rewritten.
Derivative names come from the source key plus a variant suffix, so a
re-import knows they exist without decoding the image again.

Writes are atomic (temp file + os.replace) and recorded in a WriteLog so a
failed chapter can remove exactly the files it created.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, UnidentifiedImageError

__all__ = [
    "MAX_IMAGE_PIXELS",
    "MediaError",
    "MediaStore",
    "StoredImage",
    "WriteLog",
    "cover_path",
    "derivative_size",
    "original_path",
    "reader_path",
    "saver_path",
]

# Explicit, not Pillow's default: a tall webtoon strip (1000 x 60000) passes,
# a 100000 x 100000 decompression bomb does not.
MAX_IMAGE_PIXELS = 80_000_000
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

READER_WIDTH = 1200
SAVER_WIDTH = 720
COVER_WIDTHS = (320, 160)
WEBP_MAX_SIDE = 16_383  # the WebP format cannot encode more
_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif"}


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


class MediaStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, rel: str) -> Path:
        return self.root / rel

    def store_page(self, data: bytes, log: WriteLog) -> StoredImage:
        """Keep the original and write the reader and data-saver WebPs once."""
        key = hashlib.sha256(data).hexdigest()
        image, ext = _open_image(data)
        with image:
            self._write_once(original_path(key, ext), lambda: data, log)
            for rel, width in ((reader_path(key), READER_WIDTH), (saver_path(key), SAVER_WIDTH)):
                self._write_once(rel, lambda w=width: _webp(image, w), log)
            return StoredImage(
                key=key, ext=ext, width=image.width, height=image.height, bytes=len(data)
            )

    def store_cover(self, data: bytes, log: WriteLog) -> str:
        """Keep a cover source and its thumbnails; returns its key."""
        key = hashlib.sha256(data).hexdigest()
        image, ext = _open_image(data)
        with image:
            self._write_once(original_path(key, ext), lambda: data, log)
            for width in COVER_WIDTHS:
                self._write_once(cover_path(key, width), lambda w=width: _webp(image, w), log)
        return key

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

    def _write_once(self, rel: str, produce, log: WriteLog) -> None:
        target = self.path(rel)
        if target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        content = produce()
        fd, temp = tempfile.mkstemp(prefix=".tmp-", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
        log.created.append(target)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty, or already gone


def _open_image(data: bytes) -> tuple[Image.Image, str]:
    """Decode fully (so truncated files fail here), with bomb warnings as errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
            ext = _FORMATS.get(image.format or "")
            if ext is None:
                image.close()
                raise MediaError(f"unsupported image format {image.format}")
            image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise MediaError(f"decompression bomb refused: {exc}") from None
        except UnidentifiedImageError:
            raise MediaError("not a readable image") from None
        except (OSError, SyntaxError, ValueError) as exc:
            raise MediaError(f"corrupt image: {exc}") from None
    return image, ext


def derivative_size(width: int, height: int, max_width: int) -> tuple[int, int]:
    """Size of a WebP derivative: at most `max_width` wide, never enlarged, aspect kept."""
    scale = min(1.0, max_width / width, WEBP_MAX_SIDE / height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def _webp(image: Image.Image, max_width: int) -> bytes:
    """Shrink to `max_width` (never enlarge), keeping the aspect ratio, as WebP."""
    size = derivative_size(image.width, image.height, max_width)
    has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
    frame = image.convert("RGBA" if has_alpha else "RGB")
    if frame.size != size:
        frame = frame.resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    frame.save(out, format="WEBP", quality=80, method=4)
    return out.getvalue()
