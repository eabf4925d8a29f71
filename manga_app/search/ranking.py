"""How search results are ordered. Pure module.

Relevance tiers: the exact title (or an alias or reading equal to the query)
first, then titles starting with the query, then an alias or reading
starting with it, then any other match in a title, alias or reading, and
last the series found only by an author's name; ties go to the more
popular series."""

from __future__ import annotations

from collections.abc import Sequence

EXACT_TITLE, TITLE_PREFIX, ALIAS_OR_READING, SUBSTRING, AUTHOR = range(5)

RELEVANCE = "relevance"
UPDATED = "updated"
POPULAR = "popular"
NEWEST = "newest"
TITLE = "title"
# URL value -> label; the order is the order of the sort links.
SORT_LABELS = {
    RELEVANCE: "関連度順",
    UPDATED: "更新順",
    POPULAR: "人気順",
    NEWEST: "新着順",
    TITLE: "タイトル順",
}
BROWSE_SORTS = (UPDATED, POPULAR, NEWEST, TITLE)


def effective_sort(sort: str, has_query: bool) -> str:
    """The sort actually used: relevance needs a query, browsing defaults to updates."""
    if sort not in SORT_LABELS or (sort == RELEVANCE and not has_query):
        return RELEVANCE if has_query else UPDATED
    return sort


def tier(query: str, title_key: str, other_keys: Sequence[str], *, author_only: bool = False) -> int:
    """The relevance tier of one series for a folded, space-free query
    (`author_only`: the words matched an author's name, not these keys)."""
    if author_only:
        return AUTHOR
    if title_key == query or query in other_keys:
        return EXACT_TITLE
    if title_key.startswith(query):
        return TITLE_PREFIX
    if any(key.startswith(query) for key in other_keys):
        return ALIAS_OR_READING
    return SUBSTRING
