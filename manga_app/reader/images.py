"""Which image files a reader page has: the JPEG/WebP every browser shows
and the AVIF copies (at the reader and data-saver widths, and the high-DPI
one of a wide page) a browser that shows AVIF takes instead, through
`<picture>` (assets/js/reader/pages.jsx; which AVIF: image_formats.js).
Pure module."""

from __future__ import annotations

# A page's AVIF copies in a manifest: at the reader width, the data saver's and the high-DPI one.
AVIF_FIELDS = ("avif", "saver_avif", "hidpi_avif")


def avif_copies(item: dict) -> dict[str, str]:
    """The AVIF fields of a manifest page that name a file: none in a manifest
    published before AVIF, one or none for a strip too tall for AVIF."""
    copies = {}
    for field in AVIF_FIELDS:
        value = item.get(field)
        if isinstance(value, str) and value.strip():
            copies[field] = value.strip()
    return copies


def warm_images(pages: list[dict], *, saver: bool, count: int) -> list[dict]:
    """The first `count` pages' images at the reader's quality, as the browser
    warms its cache with them: `src` (JPEG or WebP, every browser) and `avif`
    ("" when the page has none), and at full quality the high-DPI AVIF with the
    page's size (the browser takes it where it would draw the page with it);
    the browser fetches the one it would show."""
    if saver:
        return [{"src": page["saver_url"], "avif": page.get("saver_avif", "")} for page in pages[:count]]
    return [{"src": page["url"], "avif": page.get("avif", ""), "hidpi_avif": page.get("hidpi_avif", ""),
             "width": page["width"], "height": page["height"]} for page in pages[:count]]
