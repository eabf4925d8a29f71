"""The wording and query of the author and tag pages. No framework imports."""

from __future__ import annotations

from manga_app.core import routes
from manga_app.core.routes import PageKind
from manga_app.search.query import Query

# The listing pages of a name: their URL builder and the query of their series.
URLS = {PageKind.AUTHOR: routes.author_url, PageKind.TAG: routes.tag_url}


def heading(kind: PageKind, name: str) -> str:
    """The page's h1: 「山田花子の作品」, 「#お仕事の漫画」."""
    if kind is PageKind.AUTHOR:
        return f"{name}の作品" if name else "作者"
    return f"#{name}の漫画" if name else "タグ"


def query_for(kind: PageKind, name: str, sort: str, page: int, per_page: int) -> Query:
    if kind is PageKind.AUTHOR:
        return Query(author=name, sort=sort, page=page, per_page=per_page)
    return Query(tag=name, sort=sort, page=page, per_page=per_page)
