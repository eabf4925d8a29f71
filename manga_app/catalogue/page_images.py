"""Decoding and encoding page images for the media store (media.py): checked
opening (no decompression bombs), EXIF orientation, one decode per page with
every size derived from it, near-grey pages told apart from colour ones, and
the AVIF, JPEG and WebP encoders with their settings."""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from PIL import Image, UnidentifiedImageError

from manga_app.catalogue import avif
from manga_app.catalogue.grey_pages import greyed, is_near_grey, painted  # noqa: F401 (is_near_grey: the benchmarks')


# Explicit, not Pillow's default: a tall webtoon strip (1000 x 60000) passes,
# a 100000 x 100000 decompression bomb does not.
MAX_IMAGE_PIXELS = 80_000_000
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS

READER_WIDTH = 1200
SAVER_WIDTH = 720
# High-DPI screens (tablets, dense desktops) take a 1,600 px AVIF of a page whose original is at
# least HIDPI_MIN_WIDTH wide (a fifth more than the reader width: less adds bytes, not detail).
# Written after the import, by `reencode` (hidpi.py), not by it: the import's throughput stays.
HIDPI_WIDTH = 1600
HIDPI_MIN_WIDTH = 1440
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
# AVIF for every page width and covers: catalogue/avif.py (SVT-AV1 and why). Its
# CRF per width and page class (page_class): the highest whose worst page of the
# class scores SSIMULACRA 2 >= 70 (benchmarks/bench_bytes.py, README).
AVIF_CRF = {
    HIDPI_WIDTH: {"grey": 22, "painted": 20, "colour": 22},
    READER_WIDTH: {"grey": 24, "painted": 23, "colour": 22},
    SAVER_WIDTH: {"grey": 26, "painted": 25, "colour": 23},
}
AVIF_MAX_SIDE = WEBP_MAX_SIDE  # taller strips stay JPEG only (libaom's limit; SVT-AV1's is lower)
FORMATS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif", "AVIF": "avif"}
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
SWAPS_SIDES = frozenset({5, 6, 7, 8})


class MediaError(Exception):
    """An image that cannot be used; the message says why."""


_BOMB_SIZE = re.compile(r"\((\d+) pixels\)")


def _bomb_error(exc: Exception) -> MediaError:
    """The refusal, quoting our limit (Pillow's error quotes twice the limit)."""
    found = _BOMB_SIZE.search(str(exc))
    size = f"{int(found.group(1)):,} pixels" if found else "the image"
    return MediaError(
        f"decompression bomb refused: {size} exceeds the limit of {MAX_IMAGE_PIXELS:,} pixels"
    )


@contextmanager
def checked_open(data: bytes) -> Iterator[Image.Image]:
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


def orientation_of(image: Image.Image) -> int:
    """EXIF orientation (1 = upright); unreadable EXIF counts as upright."""
    try:
        value = image.getexif().get(_EXIF_ORIENTATION, 1)
    except Exception:  # noqa: BLE001 - broken EXIF must not fail a readable page
        return 1
    return value if isinstance(value, int) and value in _UPRIGHT else 1


def decode(image: Image.Image, largest: tuple[int, int], orientation: int) -> Image.Image:
    """Decode fully (so truncated files fail here) and turn upright.

    JPEGs are decoded at the smallest scale still large enough for `largest`
    (given upright; the draft works on the stored orientation).
    """
    stored_largest = largest[::-1] if orientation in SWAPS_SIDES else largest
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


def cover_crop(width: int, height: int) -> tuple[int, int]:
    """The upright size of the part of a page a cover shows (its top, when very tall)."""
    return width, min(height, max(1, round(width * COVER_MAX_ASPECT)))


def encode_all(
    image: Image.Image, jobs: dict[str, tuple[tuple[int, int], bool]]
) -> dict[str, bytes]:
    """Encode every wanted derivative, each distinct size once, largest first.

    Each size is resized from the next larger one of its chain (whole pages,
    or the top crop used by covers), which costs much less than resizing
    every size from the full image.
    """
    encoded: dict[tuple[tuple[int, int], bool, str], bytes] = {}
    image = greyed(displayable(image))
    frames = {False: image}
    if any(cropped for _, cropped in jobs.values()):
        frames[True] = image.crop((0, 0, *_top_box(image.size)))
    order = sorted(jobs.items(), key=lambda item: (-item[1][0][0], "-w" not in item[0]))
    for rel, (size, cropped) in order:
        ext = rel.rsplit(".", 1)[1]
        if (size, cropped, ext) not in encoded:
            reader = _max_width(rel) >= READER_WIDTH
            frames[cropped] = webp_frame(
                frames[cropped], size, Image.Resampling.LANCZOS if reader else SMALL_RESAMPLE
            )
            encoded[(size, cropped, ext)] = encode_derivative(frames[cropped], ext, _max_width(rel))
    return {rel: encoded[(size, cropped, rel.rsplit(".", 1)[1])] for rel, (size, cropped) in jobs.items()}


def _max_width(rel: str) -> int:
    """The width a derivative's name asks for (`-w1200.avif`, `-cover320.webp`)."""
    stem = rel.rsplit(".", 1)[0]
    return int(stem.rsplit("-w", 1)[1] if "-w" in stem.rsplit("/", 1)[-1] else stem.rsplit("-cover", 1)[1])


def _top_box(size: tuple[int, int]) -> tuple[int, int]:
    return cover_crop(*size)


def derivative_size(width: int, height: int, max_width: int) -> tuple[int, int]:
    """Size of a derivative: at most `max_width` wide, never enlarged, aspect kept.

    Only a strip taller than JPEG can hold at that width is narrowed further.
    """
    scale = min(1.0, max_width / width, JPEG_MAX_SIDE / height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def derivative_ext(size: tuple[int, int], max_width: int = SAVER_WIDTH) -> str:
    """The fallback format: 'jpg' for reader derivatives and sizes WebP cannot
    encode, else 'webp'. (The AVIF beside it: avif_fits.)"""
    return "webp" if max_width != READER_WIDTH and max(size) <= WEBP_MAX_SIDE else "jpg"


def avif_fits(size: tuple[int, int]) -> bool:
    return max(size) <= AVIF_MAX_SIDE


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


def encode_derivative(frame: Image.Image, ext: str, max_width: int = SAVER_WIDTH) -> bytes:
    """AVIF, WebP, or JPEG (for what WebP cannot hold, and the reader's fallback)."""
    if ext == "avif":
        return avif.encode(frame, avif_crf(frame, max_width))
    frame = painted(frame)
    if ext == "webp":
        return encode_webp(frame)
    out = io.BytesIO()
    frame.save(out, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()


def page_class(frame: Image.Image) -> str:
    """'grey' (one channel on white paper), 'painted' (one channel on tinted
    paper, see greyed) or 'colour': each has its AVIF CRF."""
    if frame.mode != "L":
        return "colour"
    return "painted" if frame.info.get("paper") else "grey"


def avif_crf(frame: Image.Image, max_width: int) -> int:
    """The AVIF CRF of a frame (covers take the reader width's)."""
    return AVIF_CRF.get(max_width, AVIF_CRF[READER_WIDTH])[page_class(frame)]


def encode_webp(frame: Image.Image) -> bytes:
    out = io.BytesIO()
    frame.save(out, format="WEBP", quality=WEBP_QUALITY, method=WEBP_METHOD)
    return out.getvalue()
