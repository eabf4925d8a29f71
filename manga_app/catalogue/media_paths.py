"""Where each file of a page or cover lives in the media store (media.py): pure names.

A page's files are named after its media key (the sha256 of its original)
and, for a derivative, the width it was made for: `<2 hex>/<key>-w1200.jpg`,
`-w720.webp`, `-w1200.avif`, `-w720.avif`, the high-DPI `-w1600.avif`, and a
cover's `-cover320.webp` / `.avif`. A name never changes once written.
"""

from __future__ import annotations

from manga_app.catalogue.page_images import (
    COVER_WIDTHS,
    HIDPI_MIN_WIDTH,
    HIDPI_WIDTH,
    READER_WIDTH,
    SAVER_WIDTH,
    avif_fits,
    derivative_ext,
    derivative_size,
)

__all__ = ["avif_path", "cover_path", "cover_targets", "hidpi_path", "original_path", "page_targets",
           "reader_path", "saver_path"]


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


def cover_path(key: str, width: int = COVER_WIDTHS[0], ext: str = "webp") -> str:
    return _rel(key, f"-cover{width}.{ext}")


def avif_path(key: str, width: int, height: int, max_width: int) -> str | None:
    """The AVIF derivative at `max_width`, or None for a strip too tall for AVIF."""
    if not avif_fits(derivative_size(width, height, max_width)):
        return None
    return _rel(key, f"-w{max_width}.avif")


def hidpi_path(key: str, width: int, height: int) -> str | None:
    """The high-DPI AVIF of a page at least HIDPI_MIN_WIDTH wide (else None)."""
    return avif_path(key, width, height, HIDPI_WIDTH) if width >= HIDPI_MIN_WIDTH else None


def page_targets(key: str, width: int, height: int, *, avif: bool = True, hidpi: bool = False) -> list[tuple[str, int]]:
    """(relative path, max width) of a page's fallbacks (JPEG reader, WebP saver) and, with `avif`,
    AVIFs; with `hidpi` too, its high-DPI AVIF (written by `reencode`, not the import)."""
    fallbacks = [(reader_path(key, width, height), READER_WIDTH), (saver_path(key, width, height), SAVER_WIDTH)]
    avifs = [(avif_path(key, width, height, w), w) for w in (READER_WIDTH, SAVER_WIDTH) if avif]
    if avif and hidpi:
        avifs.append((hidpi_path(key, width, height), HIDPI_WIDTH))
    return fallbacks + [(rel, w) for rel, w in avifs if rel is not None]


def cover_targets(key: str, *, avif: bool = True) -> list[tuple[str, int]]:
    return [(cover_path(key, w, ext), w) for w in COVER_WIDTHS for ext in ("webp", "avif")[: 1 + avif]]
