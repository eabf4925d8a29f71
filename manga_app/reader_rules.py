"""Reader rules that the server-written head and the reader state share.

Pure: no framework imports. The head paints a chapter's first page before
any JavaScript runs (assets/js/reader/first_paint.js), so it must decide the
chapter's kind exactly as the reader will."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# A page this many times taller than wide is a webtoon strip, not a page.
TALL_STRIP_RATIO = 2.5
# The browser store of per-chapter positions (assets/js/reader/positions.js).
POSITIONS_STORAGE_KEY = "manga_reader_positions"
SETTINGS_STORAGE_KEY = "manga_reader_settings"
# What the server may know of the visitor's next first page, written by the
# reader (assets/js/reader/positions.js): "<saver 0|1>:<slug>/<number>:<page>"
# of the chapter read last. Small: it goes with every request to the site.
FIRST_PAGE_COOKIE = "manga_reader_first"
_FIRST_PAGE_HINT = re.compile(r"([01]):([a-z0-9]+(?:-[a-z0-9]+)*/\d{1,7}(?:\.\d{1,2})?):(\d{1,5})")


@dataclass(frozen=True)
class FirstPageHint:
    saver: bool
    key: str  # "<slug>/<number>" of the chapter read last
    page: int  # where that chapter reopens


# A browser that has not read here yet: full quality, every chapter from
# its first page.
NEW_VISITOR = FirstPageHint(saver=False, key="", page=0)


def first_page_hint(cookies: Mapping[str, str] | None) -> FirstPageHint | None:
    """What the request's cookies say of the next first page; None when the
    cookies are not known (then nothing is preloaded from the HTML). No
    cookie, or one garbled, is a browser that has not read here yet."""
    if cookies is None:
        return None
    found = _FIRST_PAGE_HINT.fullmatch(cookies.get(FIRST_PAGE_COOKIE, ""))
    if found is None:
        return NEW_VISITOR
    return FirstPageHint(saver=found.group(1) == "1", key=found.group(2), page=int(found.group(3)))


def preload_url(pages: list[dict], key: str, hint: FirstPageHint | None) -> str | None:
    """The page the reader will draw first, in the quality it will draw it,
    when the server can know it: the chapter read last reopens at its saved
    page; any other chapter at its first page (one it resumes elsewhere is
    rare, and then the reader corrects it)."""
    if hint is None or not pages:
        return None
    index = hint.page if hint.key == key and hint.page < len(pages) else 0
    return pages[index]["saver_url" if hint.saver else "url"]


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
    *,
    slug: str,
    number: str,
    first_page: dict,
    webtoon: bool,
    direction: str,
    second_page: dict | None,
    preload: str | None = None,
    visitor: FirstPageHint | None = None,
) -> dict:
    """What the head's first-paint script needs: the first page (both
    qualities, its size), the kind and default direction of the chapter;
    when the server knows it, the image to preload from the HTML; and what
    the reader's cookie says (`visitor`, None for a browser that has not
    read here), so the script need not read the cookie itself."""
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
    if preload:
        data["preload"] = preload
    known = visitor is not None and visitor != NEW_VISITOR
    data["visitor"] = {"saver": visitor.saver, "key": visitor.key, "page": visitor.page} if known else None
    return data


def first_paint_in_html(first_paint: Mapping) -> bool:
    """Whether the server writes the first paint as HTML: for a browser the
    reader's cookie does not know there are no settings or positions to
    read, so the reader opens with the chapter's defaults, known here. For
    any other, its stored settings decide and the head's script draws it
    (assets/js/reader/first_paint.js): a script the first frame would wait for."""
    return first_paint.get("visitor") is None
