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
derivatives show what a photo viewer shows. Reader derivatives are JPEG
(fast to encode: see JPEG_QUALITY); data-saver derivatives and covers are
WebP, except when taller (or wider) than WebP can encode (16,383 px, a long
webtoon strip): those are JPEG (up to 65,535 px), so the strip keeps its
width instead of shrinking to a sliver. Cover
thumbnails show at most the top of a page twice as tall as it is wide.

`store_page_detached` is the same work packaged for a worker process: it
takes and returns only picklable values and never raises for a bad image.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
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
    "derivative_ext",
    "derivative_size",
    "encode_derivative",
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
JPEG_MAX_SIDE = 65_535  # nor can JPEG
# Reader derivatives (1200 px) are JPEG: libjpeg-turbo encodes a 1200x1800 page in
# 7 ms against 44 ms for WebP (method 2) at the same PSNR (43.7 against 43.9 dB),
# for 147 against 68 KiB; AVIF (speed 10) takes 59 ms. WebP's bytes matter most
# for the data-saver (720 px) derivatives and cover thumbnails, which stay WebP.
# Measured on the 2-core machine: benchmarks/bench_import.py, results/import.json.
JPEG_QUALITY = 80
# The data-saver and cover sizes are resized with the Hamming filter: half the
# CPU of Lanczos (14 against 32 ms for 1200 -> 720 px) for a small, soft view.
SMALL_RESAMPLE = Image.Resampling.HAMMING
COVER_MAX_ASPECT = 2.0  # height / width of a cover thumbnail, at most (the top is kept)
# libwebp's method 2 encodes about twice as fast as its default 4 for ~5 % more
# bytes at the same quality setting (measured on the demo pages: 20 ms against
# 42 ms per 720x1024 page, 45.7 KiB against 43.4 KiB, PSNR 44.6 against 45.2 dB).
WEBP_QUALITY = 80
WEBP_METHOD = 2
_FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif", "AVIF": "avif"}
_RESIZABLE_MODES = ("L", "RGB")  # resized as they are; others are converted first
_WIDE_GRAY_MODES = ("I;16", "I;16L", "I;16B", "I;16N", "I")  # 16-bit greyscale PNGs
_WHITE = (255, 255, 255)
_EXIF_ORIENTATION = 0x0112
# EXIF orientation -> the transposition that makes the image upright.
_UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
_SWAPS_SIDES = frozenset({5, 6, 7, 8})


class MediaError(Exception):
    """An image that cannot be used; the message says why."""


def _rel(key: str, suffix: str) -> str:
    return f"{key[:2]}/{key}{suffix}"


def original_path(key: str, ext: str) -> str:
    return _rel(key, f".{ext}")


def _width_path(key: str, max_width: int, width: int | None, height: int | None) -> str:
    size = (1, 1) if width is None or height is None else derivative_size(width, height, max_width)
    return _rel(key, f"-w{max_width}.{derivative_ext(size, max_width)}")


def reader_path(key: str, width: int | None = None, height: int | None = None) -> str:
    """The reader derivative (JPEG) of a page of `width` x `height` (upright) pixels."""
    return _width_path(key, READER_WIDTH, width, height)


def saver_path(key: str, width: int | None = None, height: int | None = None) -> str:
    """The data-saver derivative: WebP, or JPEG for a strip too tall for WebP (pass the size)."""
    return _width_path(key, SAVER_WIDTH, width, height)


def cover_path(key: str, width: int = COVER_WIDTHS[0]) -> str:
    return _rel(key, f"-cover{width}.webp")


def page_targets(key: str, width: int, height: int) -> list[tuple[str, int]]:
    """(relative path, max width) of the reader derivatives of a page."""
    return [
        (reader_path(key, width, height), READER_WIDTH),
        (saver_path(key, width, height), SAVER_WIDTH),
    ]


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
    """What a worker did with one page: the stored image or why not, and the files it created.

    `note`: something the operator should know about a page that was stored
    (an animation reduced to its first frame).
    """

    stored: StoredImage | None
    error: str | None
    created: tuple[str, ...]
    note: str | None = None


class MediaStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)

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
        with _checked_open(data) as image:
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
        self, key: str, data: bytes, log: WriteLog, *, page: bool, cover: bool
    ) -> StoredImage:
        with _checked_open(data) as image:
            ext = _FORMATS.get(image.format or "")
            if ext is None:
                raise MediaError(f"unsupported image format {image.format}")
            orientation = _orientation(image)
            width, height = image.size
            if orientation in _SWAPS_SIDES:
                width, height = height, width
            stored = StoredImage(key=key, ext=ext, width=width, height=height, bytes=len(data))
            # rel -> (size, whether it shows only the top of the page)
            wanted: dict[str, tuple[tuple[int, int], bool]] = {}
            if page:
                for rel, max_width in page_targets(key, width, height):
                    wanted[rel] = (derivative_size(width, height, max_width), False)
            if cover:
                top = _cover_crop(width, height)
                for rel, max_width in cover_targets(key):
                    wanted[rel] = (derivative_size(*top, max_width), top != (width, height))
            original = original_path(key, ext)
            missing = {rel: job for rel, job in wanted.items() if not self.path(rel).exists()}
            if not missing and self.path(original).exists():
                # Same bytes as a file already stored (and decoded then): nothing to do.
                return stored
            largest = max((size for size, _ in missing.values()), default=(1, 1))
            upright = _decode(image, largest, orientation)
            self._write_once(original, data, log)
            for rel, content in _encode_all(upright, missing).items():
                self._write_once(rel, content, log)
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


def store_page_detached(
    root: str, data: bytes, cover: bool = False, log: WriteLog | None = None
) -> PageWrite:
    """`MediaStore(root).store_page` for a worker process.

    Never raises for a bad image or a failed write: the error is returned with
    the files created so far, and the caller decides when they may be removed
    (another chapter being imported at the same time may already rely on them).
    In the caller's own process, `log` lets it see the files as they are
    written, should it be interrupted before this returns.
    """
    log = log if log is not None else WriteLog()
    note = None
    try:
        stored = MediaStore(Path(root)).store_page(data, log, cover=cover)
        note = MediaStore.page_note(data)
        error = None
    except MediaError as exc:
        stored, error = None, str(exc)
    except OSError as exc:
        stored, error = None, f"cannot write to the media store: {exc}"
    except Exception as exc:  # noqa: BLE001 - reported as this page's failure
        stored, error = None, f"unexpected error: {type(exc).__name__}: {exc}"
    return PageWrite(stored, error, tuple(str(path) for path in log.created), note)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty, or already gone


_BOMB_SIZE = re.compile(r"\((\d+) pixels\)")


def _bomb_error(exc: Exception) -> MediaError:
    """The refusal, quoting our limit (Pillow's error quotes twice the limit)."""
    found = _BOMB_SIZE.search(str(exc))
    size = f"{int(found.group(1)):,} pixels" if found else "the image"
    return MediaError(
        f"decompression bomb refused: {size} exceeds the limit of {MAX_IMAGE_PIXELS:,} pixels"
    )


@contextmanager
def _checked_open(data: bytes) -> Iterator[Image.Image]:
    """Image.open with decompression-bomb warnings as errors and errors as MediaError."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise _bomb_error(exc) from None
        except UnidentifiedImageError:
            raise MediaError("not a readable image") from None
        except (OSError, SyntaxError, ValueError) as exc:
            raise MediaError(f"corrupt image: {exc}") from None
    with image:
        yield image


def _orientation(image: Image.Image) -> int:
    """EXIF orientation (1 = upright); unreadable EXIF counts as upright."""
    try:
        value = image.getexif().get(_EXIF_ORIENTATION, 1)
    except Exception:  # noqa: BLE001 - broken EXIF must not fail a readable page
        return 1
    return value if isinstance(value, int) and value in _UPRIGHT else 1


def _decode(image: Image.Image, largest: tuple[int, int], orientation: int) -> Image.Image:
    """Decode fully (so truncated files fail here) and turn upright.

    JPEGs are decoded at the smallest scale still large enough for `largest`
    (given upright; the draft works on the stored orientation).
    """
    stored_largest = largest[::-1] if orientation in _SWAPS_SIDES else largest
    if image.format == "JPEG" and stored_largest[0] * 2 <= image.width:
        image.draft(None, stored_largest)
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image.load()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise _bomb_error(exc) from None
        except (OSError, SyntaxError, ValueError) as exc:
            raise MediaError(f"corrupt image: {exc}") from None
    method = _UPRIGHT.get(orientation)
    return image.transpose(method) if method is not None else image


def _cover_crop(width: int, height: int) -> tuple[int, int]:
    """The upright size of the part of a page a cover shows (its top, when very tall)."""
    return width, min(height, max(1, round(width * COVER_MAX_ASPECT)))


def _encode_all(
    image: Image.Image, jobs: dict[str, tuple[tuple[int, int], bool]]
) -> dict[str, bytes]:
    """Encode every wanted derivative, each distinct size once, largest first.

    Each size is resized from the next larger one of its chain (whole pages,
    or the top crop used by covers), which costs much less than resizing
    every size from the full image.
    """
    encoded: dict[tuple[tuple[int, int], bool, str], bytes] = {}
    frames = {False: image}
    if any(cropped for _, cropped in jobs.values()):
        frames[True] = image.crop((0, 0, *_top_box(image.size)))
    order = sorted(jobs.items(), key=lambda item: (-item[1][0][0], "-w" not in item[0]))
    for rel, (size, cropped) in order:
        ext = rel.rsplit(".", 1)[1]
        if (size, cropped, ext) not in encoded:
            reader = f"-w{READER_WIDTH}." in rel
            frames[cropped] = webp_frame(
                frames[cropped], size, Image.Resampling.LANCZOS if reader else SMALL_RESAMPLE
            )
            encoded[(size, cropped, ext)] = encode_derivative(frames[cropped], ext)
    return {rel: encoded[(size, cropped, rel.rsplit(".", 1)[1])] for rel, (size, cropped) in jobs.items()}


def _top_box(size: tuple[int, int]) -> tuple[int, int]:
    return _cover_crop(*size)


def derivative_size(width: int, height: int, max_width: int) -> tuple[int, int]:
    """Size of a derivative: at most `max_width` wide, never enlarged, aspect kept.

    Only a strip taller than JPEG can hold at that width is narrowed further.
    """
    scale = min(1.0, max_width / width, JPEG_MAX_SIDE / height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def derivative_ext(size: tuple[int, int], max_width: int = SAVER_WIDTH) -> str:
    """'jpg' for reader derivatives and sizes WebP cannot encode, else 'webp'."""
    return "webp" if max_width != READER_WIDTH and max(size) <= WEBP_MAX_SIDE else "jpg"


def webp_frame(
    image: Image.Image, size: tuple[int, int], resample=Image.Resampling.LANCZOS
) -> Image.Image:
    """`image` as it looks on paper (8-bit L or RGB, transparency on white), at `size`.

    Greyscale pages are resized before they are expanded to RGB (a third of the work).
    """
    image = displayable(image)
    if image.size != size:
        image = image.resize(size, resample)
    return image


def displayable(image: Image.Image) -> Image.Image:
    """8-bit greyscale or RGB: 16-bit scaled down (not clipped to white), CMYK and
    palettes converted, transparent pages flattened onto white paper."""
    if image.mode in _WIDE_GRAY_MODES:
        return image.convert("I").point(lambda value: value / 257).convert("L")
    has_alpha = image.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in image.info
    if has_alpha:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, _WHITE)
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat.convert("L") if image.mode in ("LA", "La") else flat
    if image.mode in _RESIZABLE_MODES:
        return image
    return image.convert("L" if image.mode == "1" else "RGB")


def encode_derivative(frame: Image.Image, ext: str) -> bytes:
    """WebP, or JPEG for what WebP cannot hold."""
    if ext == "webp":
        return encode_webp(frame)
    out = io.BytesIO()
    frame.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def encode_webp(frame: Image.Image) -> bytes:
    out = io.BytesIO()
    frame.save(out, format="WEBP", quality=WEBP_QUALITY, method=WEBP_METHOD)
    return out.getvalue()
