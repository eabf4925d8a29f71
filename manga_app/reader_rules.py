"""Reader rules that the server-written head and the reader state share.

Pure: no framework imports. The head paints a chapter's first page before
any JavaScript runs (assets/js/reader/first_paint.js), so it must decide the
chapter's kind exactly as the reader will."""

from __future__ import annotations

from collections.abc import Iterable

# A page this many times taller than wide is a webtoon strip, not a page.
TALL_STRIP_RATIO = 2.5
# The browser store of per-chapter positions (assets/js/reader/positions.js).
POSITIONS_STORAGE_KEY = "manga_reader_positions"
SETTINGS_STORAGE_KEY = "manga_reader_settings"


def is_strip_chapter(sizes: Iterable[tuple[int, int]]) -> bool:
    """Mostly tall strips: more than half of the pages."""
    sizes = list(sizes)
    tall = sum(1 for width, height in sizes if width > 0 and height / width > TALL_STRIP_RATIO)
    return bool(sizes) and tall * 2 > len(sizes)


def is_webtoon(series_direction: str, sizes: Iterable[tuple[int, int]]) -> bool:
    """Read as a webtoon: the series says so (ComicInfo Format), or the
    chapter's pages are strips whatever the series says."""
    return series_direction == "vertical" or is_strip_chapter(sizes)


def series_default_direction(series_direction: str, webtoon: bool) -> str:
    """Paged reading direction when the visitor chose none for the series:
    manga right-to-left; left-to-right books and webtoons left-to-right."""
    return "rtl" if series_direction == "rtl" and not webtoon else "ltr"


def first_paint(
    *, slug: str, number: str, first_page: dict, webtoon: bool, direction: str, second_page: dict | None
) -> dict:
    """What the head's first-paint script needs: the first page (both
    qualities, its size), the kind and default direction of the chapter."""
    data = {
        "key": f"{slug}/{number}",
        "slug": slug,
        "number": number,
        "url": first_page["url"],
        "saver_url": first_page["saver_url"],
        "width": first_page["width"],
        "height": first_page["height"],
        "webtoon": webtoon,
        "direction": direction,
    }
    if second_page is not None:
        # Double-page view pairs the first two pages: the pair's layout needs both sizes.
        data["next"] = {"width": second_page["width"], "height": second_page["height"]}
    return data
