"""関連作品 (issue 32): the same author's series first, then those sharing
the most tags and genres, most read first among equals; never the series
itself; a handful at any catalogue size."""

from __future__ import annotations

import pytest

from manga_app.read_models.compact import CatalogueBuilder
from manga_app.search.memberships import Memberships
from manga_app.search.related import related


def _raw(slug: str, *, authors=(), artists=(), tags=(), genres=("日常",), views=0) -> dict:
    return {
        "slug": slug, "title": slug.upper(), "alt_titles": [], "cover": f"/media/{slug}.webp", "genres": list(genres),
        "status": "ongoing", "latest_chapter": 1, "updated_at": "2026-01-01T00:00:00Z", "views": views,
        "authors": list(authors), "artists": list(artists), "tags": list(tags),
    }


@pytest.fixture(scope="module")
def members() -> Memberships:
    builder = CatalogueBuilder()
    builder.add_page([
        _raw("me", authors=["山田"], tags=["魔法", "お店"], genres=["ファンタジー", "日常"], views=50),
        _raw("drawn-by-me", authors=["鈴木"], artists=["山田"], genres=["SF"], views=1),
        _raw("also-mine", authors=["山田"], genres=["ホラー"], views=2),
        _raw("two-tags", authors=["佐藤"], tags=["魔法", "お店"], genres=["SF"], views=0),
        _raw("tag-and-genres", authors=["佐藤"], tags=["魔法"], genres=["ファンタジー", "日常"], views=3),
        _raw("genres-only", authors=["田中"], genres=["ファンタジー", "日常"], views=100),
        _raw("one-genre", authors=["田中"], genres=["日常"], views=200),
        _raw("unrelated", authors=["田中"], genres=["ホラー"], views=999),
    ])
    return Memberships(builder.build())


@pytest.mark.parametrize(
    ("slug", "expected"),
    [
        # author's (most read first), then tags x3 + genres: two-tags 6, tag-and-genres 3+2, genres-only 2, one-genre 1
        ("me", ["also-mine", "drawn-by-me", "two-tags", "tag-and-genres", "genres-only", "one-genre"]),
        # 田中's two, then the one sharing its genre (ホラー)
        ("unrelated", ["one-genre", "genres-only", "also-mine"]),
        ("no-such-series", []),
    ],
)
def test_related_series(members: Memberships, slug: str, expected: list[str]) -> None:
    assert [item.slug for item in related(members, slug)] == expected


def test_related_is_capped(members: Memberships) -> None:
    assert [item.slug for item in related(members, "me", limit=3)] == ["also-mine", "drawn-by-me", "two-tags"]
