"""The author and tag pages' series (issue 32): every series an author wrote
or drew, every series with a tag, sorted and paged like a genre, from the
held catalogue as the published lists give it."""

from __future__ import annotations

import pytest

from manga_app.core import pages, routes
from manga_app.core.pages import PageKind
from manga_app.heads import build
from manga_app.read_models.compact import CatalogueBuilder
from manga_app.search import ranking
from manga_app.search.index import SearchIndex
from manga_app.search.query import Query


def _raw(slug: str, *, authors=(), artists=(), tags=(), views=0, day=1) -> dict:
    """A published list item (mangas_{n}.json)."""
    return {
        "slug": slug, "title": slug.upper(), "alt_titles": [], "cover": f"/media/{slug}.webp", "genres": ["日常"],
        "status": "ongoing", "latest_chapter": 1, "updated_at": f"2026-01-{day:02d}T00:00:00Z", "views": views,
        "authors": list(authors), "artists": list(artists), "tags": list(tags),
    }


@pytest.fixture(scope="module")
def index() -> SearchIndex:
    builder = CatalogueBuilder()
    builder.add_page([
        _raw("a", authors=["山田花子"], tags=["お仕事", "魔法"], views=5, day=3),
        _raw("b", authors=["鈴木一郎"], artists=["山田花子"], tags=["お仕事"], views=9, day=1),
        _raw("c", authors=["山田花子"], artists=["山田花子"], views=1, day=2),
        _raw("d", authors=["鈴木一郎"], tags=["料理"], views=3, day=4),
    ])
    return SearchIndex(builder.build())


@pytest.mark.parametrize(
    ("query", "slugs"),
    [
        # written, drawn, or both (listed once)
        (Query(author="山田花子", sort=ranking.UPDATED), ["a", "c", "b"]),
        (Query(author="山田花子", sort=ranking.POPULAR), ["b", "a", "c"]),
        (Query(author="鈴木一郎", sort=ranking.UPDATED), ["d", "b"]),
        (Query(tag="お仕事", sort=ranking.POPULAR), ["b", "a"]),
        (Query(tag="料理"), ["d"]),
        # names are exact: no partial or unknown name lists anything
        (Query(author="山田"), []),
        (Query(tag="仕事"), []),
        (Query(author="存在しない作者"), []),
        (Query(author="山田花子", tag="お仕事", sort=ranking.POPULAR), ["b", "a"]),
        # paged like a genre
        (Query(author="山田花子", sort=ranking.UPDATED, page=2, per_page=2), ["b"]),
    ],
)
def test_an_author_or_tag_lists_its_series_sorted_and_paged(index: SearchIndex, query: Query, slugs: list[str]) -> None:
    assert [item.slug for item in index.search(query, []).items] == slugs


def test_the_index_knows_each_author_artist_and_tag(index: SearchIndex) -> None:
    assert set(index.people) == {"山田花子", "鈴木一郎"}
    assert set(index.tags) == {"お仕事", "魔法", "料理"}
    item = index.catalogue.item(index.catalogue.find("b"))
    assert item.artists == ("山田花子",) and item.tags == ("お仕事",)


@pytest.mark.parametrize(
    ("kind", "name", "title", "path"),
    [
        (PageKind.AUTHOR, "山田花子", "山田花子の作品一覧 | 漫画ひろば", "/author/%E5%B1%B1%E7%94%B0%E8%8A%B1%E5%AD%90"),
        (PageKind.TAG, "お仕事", "#お仕事の漫画一覧 | 漫画ひろば", "/tag/%E3%81%8A%E4%BB%95%E4%BA%8B"),
        (PageKind.AUTHOR, "A/B & C", "A/B & Cの作品一覧 | 漫画ひろば", "/author/A%2FB%20%26%20C"),
    ],
)
def test_author_and_tag_heads(kind: PageKind, name: str, title: str, path: str) -> None:
    head = build.named_list_head(kind, name, 3, site_name="漫画ひろば", origin="https://m.example")
    assert head.title == title and head.path == path and "3作品" in head.description
    page_ld, crumbs = head.json_ld
    assert page_ld["@type"] == "CollectionPage" and page_ld["url"] == "https://m.example" + path
    assert page_ld["about"]["name"] == name
    assert crumbs["itemListElement"][-1]["item"] == "https://m.example" + path
    assert routes.match(path) == routes.RouteMatch(kind, {"name": name})


def test_the_phone_tab_bar_is_declared_with_the_pages() -> None:
    assert pages.tab_links() == (
        ("ホーム", "home", routes.HOME), ("ランキング", "ranking", routes.RANKING), ("検索", "search", routes.SEARCH),
        ("ライブラリ", "library", routes.LIBRARY), ("履歴", "history", routes.HISTORY),
    )
    assert len(pages.tab_links()) <= pages.MAX_TABS
