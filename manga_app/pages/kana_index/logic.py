"""The parts of a 五十音 row's page (state.KanaRowState): its rows' tabs,
its page number and its pager. No framework imports."""

from __future__ import annotations

from urllib.parse import parse_qsl

from manga_app.core import gojuon, routes
from manga_app.search.paging import parse_page
from manga_app.cards.records import PageLink, TabLink, pager_links


def parse_row_query(query_string: str) -> int:
    """The page from `?page=`; anything odd means page 1."""
    return parse_page(dict(parse_qsl(query_string[:2000], errors="replace")).get("page"))


def row_tabs(current: str, counts: dict[str, int]) -> list[TabLink]:
    """A tab per row (あ … わ, 英数), each with its count: 「な 5」."""
    return [
        TabLink(label=f"{row} {counts.get(row, 0)}", href=routes.kana_row_url(row), current=row == current)
        for row in gojuon.SITE_ROWS
    ]


def pager(row: str, page: int, pages: int) -> list[PageLink]:
    return pager_links(page, pages, lambda number: routes.kana_row_url(row, number))


def heading(row: str) -> str:
    """The page's h1: 「な行の漫画」, 「英数の漫画」; 五十音索引 while the row is unknown."""
    return f"{gojuon.site_row_label(row)}の漫画" if row in gojuon.SITE_ROWS else "五十音索引"
