"""Paging arithmetic for grids and result lists. Pure module."""

from __future__ import annotations

PER_PAGE = 24
# Page numbers past this are nonsense from a hand-edited URL.
MAX_PAGE = 100_000


def page_count(total: int, per_page: int = PER_PAGE) -> int:
    """At least 1, so an empty result still has a (empty) first page."""
    return max(1, -(-max(0, total) // per_page))


def clamp_page(page: int, pages: int) -> int:
    """Out-of-range pages show the nearest real page: 1 or the last one."""
    return min(max(1, page), max(1, pages))


def parse_page(raw: str | None) -> int:
    """`?page=` as a visitor may type it; anything odd means page 1."""
    text = (raw or "").strip()
    if not (text.isascii() and text.isdigit()):
        return 1
    if len(text) > 9:
        return MAX_PAGE
    return min(max(1, int(text)), MAX_PAGE)


def page_window(page: int, pages: int, radius: int = 2) -> list[int | None]:
    """Page numbers to link around `page`: first, last and `radius` either
    side, with None where numbers are skipped (shown as an ellipsis)."""
    shown = sorted({1, pages, *range(max(1, page - radius), min(pages, page + radius) + 1)})
    window: list[int | None] = []
    for number in shown:
        if window and number - (window[-1] or 0) > 1:
            window.append(None)
        window.append(number)
    return window
