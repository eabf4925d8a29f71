"""Reader rules: what kind of chapter this is, its default direction, and
what the reader's cookies say. Pure: no framework imports."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# The names the browser's scripts share (core/browser.py declares them):
# the per-chapter positions (assets/js/reader/positions.js); the reader's
# settings, the per-series directions in localStorage and the rest in a
# cookie the server reads to draw the reader as the visitor set it; where the
# chapter read last was left, written by the reader: "<saver 0|1>:<slug>/<number>:<page>",
# so the server draws that page; and this browser's random id, who "a visitor"
# is for the chapter view count when not signed in, made by the browser before
# the app connects (assets/js/visitor.js), so the app's first event already
# carries it; the server makes one only for a client that came without.
from manga_app.core.browser import COOKIE_SECONDS as VISITOR_COOKIE_SECONDS
from manga_app.core.browser import (FIRST_PAGE_COOKIE, POSITIONS_STORAGE_KEY, SETTINGS_COOKIE, SETTINGS_STORAGE_KEY,
                                    VISITOR_COOKIE)

__all__ = ["FIRST_PAGE_COOKIE", "POSITIONS_STORAGE_KEY", "SETTINGS_COOKIE", "SETTINGS_STORAGE_KEY", "VISITOR_COOKIE",
           "VISITOR_COOKIE_SECONDS"]

# A page this many times taller than wide is a webtoon strip, not a page.
TALL_STRIP_RATIO = 2.5
# quality:slug/number:page, then the screen the reader read it on (dpr@width x height, for the reader's
# choice of a high-DPI copy: assets/js/image_formats.js).
_FIRST_PAGE_HINT = re.compile(
    r"([01]):([a-z0-9]+(?:-[a-z0-9]+)*/\d{1,7}(?:\.\d{1,2})?):(\d{1,5})(?::(\d{1,2}(?:\.\d{1,2})?@\d{1,5}x\d{1,5}))?")
_VISITOR_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(frozen=True)
class FirstPageHint:
    saver: bool
    key: str  # "<slug>/<number>" of the chapter read last
    page: int  # where that chapter reopens


# A browser that has not read here yet: full quality, every chapter from
# its first page.
NEW_VISITOR = FirstPageHint(saver=False, key="", page=0)


def first_page_hint(cookies: Mapping[str, str]) -> FirstPageHint:
    """What the request's cookies say of the page the chapter read last was
    left at. No cookie, or one garbled, is a browser that has not read here yet."""
    found = _FIRST_PAGE_HINT.fullmatch(cookies.get(FIRST_PAGE_COOKIE, ""))
    if found is None:
        return NEW_VISITOR
    return FirstPageHint(saver=found.group(1) == "1", key=found.group(2), page=int(found.group(3)))


def first_page_screen(cookie: str) -> str:
    """The screen in the first-page cookie ("2.63@820x1180"), or "": the reader's first page is the
    AVIF this screen shows (its high-DPI copy or not), in the server's HTML too."""
    found = _FIRST_PAGE_HINT.fullmatch(cookie)
    return (found.group(4) or "") if found else ""


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


def visitor_id(cookie: str) -> str:
    """The browser's visitor id from its cookie, or "" when there is none
    or it is not one this site makes (random URL-safe base64)."""
    return cookie if _VISITOR_ID.fullmatch(cookie) else ""


# A page turn reported before its chapter's on_load ran (Reflex queues a page's on_load after the
# events that came while it sent the page's state) is the opening's, if at most this old then.
EARLY_SECONDS = 30


def opening_position(opened: tuple[int, float], early: tuple, chapter: tuple[str, str], opened_at: float) -> tuple[int, float]:
    """Where an opening of `chapter` (slug, number) is recorded: the page (and offset) of the
    `early` report (slug, number, page, offset, at: epoch s) if it was this chapter's and came
    at most EARLY_SECONDS before the pages went out (`opened_at`), else where it opened."""
    if tuple(early[:2]) == chapter and opened_at - early[4] <= EARLY_SECONDS:
        return early[2], early[3]
    return opened
