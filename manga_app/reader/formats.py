"""Which image of each page a browser is served: AVIF where it decodes AVIF
(its cookie says so), else the JPEG and WebP every browser shows. Pure."""

from __future__ import annotations

from manga_app.reader import rules

AVIF_FIELDS = ("avif", "saver_avif")


def served_pages(pages: list[dict], image_formats: str) -> list[dict]:
    """The pages as this browser is served them: `url` and `saver_url` are the
    AVIF copies when its cookie (rules.IMAGE_COOKIE, written by
    assets/js/image_formats.js) says it decodes AVIF, else the JPEG and WebP
    every browser shows. One URL per page and quality, so the reader's
    loading, the server's preload and the offline copy stay as they are."""
    avif = image_formats == rules.IMAGE_AVIF
    served = []
    for page in pages:
        shown = {key: value for key, value in page.items() if key not in AVIF_FIELDS}
        if avif:
            shown["url"] = page.get("avif") or page["url"]
            shown["saver_url"] = page.get("saver_avif") or page["saver_url"]
        served.append(shown)
    return served
