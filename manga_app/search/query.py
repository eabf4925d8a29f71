"""The one search query type: what a visitor asks for, already validated
(params.py parses it from a URL; index.py answers it). Pure module."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Query:
    q: str = ""
    genres: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    status: str = ""
    sort: str = ""
    page: int = 1
    per_page: int = 24

    def url_params(self) -> dict[str, str | int | list[str] | None]:
        """Keyword arguments for routes.search_url (defaults left out)."""
        return {
            "q": self.q, "genre": list(self.genres), "exclude": list(self.exclude),
            "status": self.status, "sort": self.sort, "page": self.page if self.page > 1 else None,
        }

    def with_changes(self, **changes) -> Query:
        """A new search from this one; any filter change goes back to page 1."""
        return replace(self, **{"page": 1, **changes})
