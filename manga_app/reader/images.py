"""Which image files a reader page has: the JPEG/WebP every browser shows
and the AVIF copies (at the reader and data-saver widths) a browser that
shows AVIF takes instead, through `<picture>` (assets/js/reader/pages.jsx).
Pure module."""

from __future__ import annotations

# A page's AVIF copies in a manifest: at the reader width and the data saver's.
AVIF_FIELDS = ("avif", "saver_avif")


def avif_copies(item: dict) -> dict[str, str]:
    """The AVIF fields of a manifest page that name a file: none in a manifest
    published before AVIF, one or none for a strip too tall for AVIF."""
    copies = {}
    for field in AVIF_FIELDS:
        value = item.get(field)
        if isinstance(value, str) and value.strip():
            copies[field] = value.strip()
    return copies


def warm_images(pages: list[dict], *, saver: bool, count: int) -> list[dict[str, str]]:
    """The first `count` pages' images at the reader's quality, as the browser
    warms its cache with them: `src` (JPEG or WebP, every browser) and `avif`
    ("" when the page has none); the browser fetches the one it would show."""
    src_field, avif_field = ("saver_url", "saver_avif") if saver else ("url", "avif")
    return [{"src": page[src_field], "avif": page.get(avif_field, "")} for page in pages[:count]]
