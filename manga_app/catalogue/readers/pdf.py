"""PDF chapters through pypdfium2 (PDFium, the PDF engine of Chromium).

A page that is one image and nothing else (a scanned comic) is taken at its
native resolution: JPEG data as it is stored, other images decoded once to
PNG. Any other page is rendered to about 1,600 px high. Pages are produced
when read, one at a time, in this process (PDFium is not thread-safe).

Refused: encrypted PDFs; more pages than the entry limit; pages larger than
the PDF format allows (200 inches a side), or whose image or rendering would
exceed the decompression-bomb pixel limit.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from manga_app.catalogue.media import MAX_IMAGE_PIXELS
from manga_app.catalogue.readers.base import ArchiveError, ChapterSource, Limits

__all__ = ["RENDER_HEIGHT", "open_pdf"]

RENDER_HEIGHT = 1600  # pixels of a rendered page
MAX_PAGE_POINTS = 14_400  # the PDF format's largest page side: 200 inches
_FULL_PAGE = 0.9  # an image covering this share of the page (each side) is the page


@contextmanager
def open_pdf(path: Path, limits: Limits) -> Iterator[ChapterSource]:
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise ArchiveError(
                "the PDF is encrypted (password-protected PDFs are not supported)"
            ) from None
        raise ArchiveError(f"unreadable PDF: {exc}") from None
    try:
        count = len(document)
        if count > limits.max_entries:
            raise ArchiveError(f"too many pages ({count} > {limits.max_entries}); PDF refused")
        for index in range(count):
            width, height = document[index].get_size()
            if max(width, height) > MAX_PAGE_POINTS:
                raise ArchiveError(
                    f"page {index + 1} is {width:,.0f} x {height:,.0f} points, larger than a "
                    f"PDF page can be ({MAX_PAGE_POINTS:,} points a side); PDF refused"
                )
        names = [f"page-{index + 1:04d}" for index in range(count)]
        position = {name: index for index, name in enumerate(names)}

        def read(name: str) -> bytes:
            try:
                return _page_bytes(document[position[name]], limits)
            except pdfium.PdfiumError as exc:
                raise ArchiveError(f"unreadable PDF page: {exc}") from None

        yield ChapterSource(pages=names, comicinfo=None, _read=read)
    finally:
        document.close()


def _page_bytes(page: pdfium.PdfPage, limits: Limits) -> bytes:
    image = _sole_image(page)
    if image is not None:
        width, height = image.get_px_size()
        _check_pixels(width, height)
        if image.get_filters() == ["DCTDecode"]:
            data = bytes(image.get_data(decode_simple=False))
        else:
            data = _png(image.get_bitmap(render=False).to_pil())
    else:
        page_width, page_height = page.get_size()
        scale = RENDER_HEIGHT / max(page_height, 1.0)
        _check_pixels(round(page_width * scale), RENDER_HEIGHT)
        data = _png(page.render(scale=scale, fill_color=(255, 255, 255, 255)).to_pil())
    if len(data) > limits.max_entry_bytes:
        raise ArchiveError(f"a page holds more than {limits.max_entry_bytes} bytes")
    return data


def _sole_image(page: pdfium.PdfPage) -> pdfium.PdfImage | None:
    """The page's only object, when it is an image covering the page and there is no text."""
    objects = list(page.get_objects(max_depth=2))
    if len(objects) != 1 or objects[0].type != pdfium_c.FPDF_PAGEOBJ_IMAGE:
        return None
    left, bottom, right, top = objects[0].get_bounds()
    width, height = page.get_size()
    if (right - left) < width * _FULL_PAGE or (top - bottom) < height * _FULL_PAGE:
        return None
    if page.get_rotation() or objects[0].get_matrix().get()[1:3] != (0, 0):
        return None  # turned or rotated: render it as it shows
    return objects[0]


def _check_pixels(width: int, height: int) -> None:
    if width * height > MAX_IMAGE_PIXELS:
        raise ArchiveError(
            f"decompression bomb refused: a page of {width * height:,} pixels exceeds the "
            f"limit of {MAX_IMAGE_PIXELS:,} pixels"
        )


def _png(image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
