"""The one search query type, what a visitor asks for, already validated
(params.py parses it from a URL), and the Result index.py answers it with. Pure module."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Query:
    q: str = ""
    genres: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    status: str = ""
    row: str = ""  # a 五十音 row of the site's index (core.gojuon.SITE_ROWS)
    sort: str = ""
    page: int = 1
    per_page: int = 24
    # One author's (writer or artist) or one tag's series: the author and tag pages.
    author: str = ""
    tag: str = ""

    def url_params(self) -> dict[str, str | int | list[str] | None]:
        """Keyword arguments for routes.search_url (defaults left out)."""
        return {
            "q": self.q, "genre": list(self.genres), "exclude": list(self.exclude),
            "status": self.status, "sort": self.sort, "page": self.page if self.page > 1 else None,
        }

    def with_changes(self, **changes) -> Query:
        """A new search from this one; any filter change goes back to page 1."""
        return replace(self, **{"page": 1, **changes})


@dataclass(frozen=True)
class Result:
    items: tuple[Any, ...]  # this page's items, in order
    total: int
    page: int  # clamped to 1..pages
    pages: int
    sort: str  # the sort actually used
