"""The held catalogue's compact storage: what goes in comes back out, item by item."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from manga_app.read_models.compact import Catalogue, CatalogueBuilder, MangaItem
from manga_app.read_models.held import Snapshot

KEY = "3f" * 32


def raw(slug: str, **changes) -> dict:
    item = {
        "slug": slug,
        "title": f"魔王城の{slug}",
        "alt_titles": [f"Maou {slug}", "別名"],
        "cover": f"https://cdn.example.test/media/3f/{KEY}-cover320.webp",
        "cover_small": f"https://cdn.example.test/media/3f/{KEY}-cover160.webp",
        "genres": ["ファンタジー", "お仕事"],
        "status": "ongoing",
        "latest_chapter": 12.5,
        "updated_at": "2026-03-01T12:34:56Z",
        "created_at": "2025-01-02T03:04:05Z",
        "views": 1234,
        "authors": ["綾瀬つむぎ"],
        "chapters_count": 13,
        "readings": [{"hiragana": "まおうじょう", "romaji": "maoujou"}, {"katakana": "ベツメイ"}],
    }
    return {**item, **changes}


def built(*items: dict) -> Catalogue:
    """The items as one list page."""
    builder = CatalogueBuilder()
    builder.add_page(list(items))
    return builder.build()


def test_every_field_comes_back_as_published() -> None:
    item = built(raw("a"))[0]
    assert item == MangaItem(
        slug="a", title="魔王城のa", alt_titles=("Maou a", "別名"),
        cover=f"https://cdn.example.test/media/3f/{KEY}-cover320.webp",
        genres=("ファンタジー", "お仕事"), status="ongoing", latest_chapter=12.5,
        updated_at=datetime(2026, 3, 1, 12, 34, 56, tzinfo=UTC), views=1234,
        created_at=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC), authors=("綾瀬つむぎ",),
        readings=("まおうじょう", "maoujou", "ベツメイ"),
        cover_small=f"https://cdn.example.test/media/3f/{KEY}-cover160.webp", chapters=13,
    )


@pytest.mark.parametrize(
    ("cover", "small"),
    [
        ("/media/c.webp", "/media/c-small.webp"),  # not content-hashed: kept whole
        ("", ""),  # a series without a cover
        ("/media/c.webp", "/media/c.webp"),  # one size for both
        (f"/media/3f/{KEY}-cover320.webp", f"/media/3f/{KEY}-cover320.webp"),
        (f"/media/3f/{KEY}-cover320.webp", "/media/other.webp"),
        (f"/media/3f/{KEY}-cover320.webp", f"/media/aa/{'aa' * 32}-cover160.webp"),  # another hash
    ],
)
def test_any_cover_url_survives(cover: str, small: str) -> None:
    item = built(raw("a", cover=cover, cover_small=small))[0]
    assert (item.cover, item.cover_small) == (cover, small)


def test_a_cover_with_avif_copies_says_so_and_one_without_does_not() -> None:
    avif = {"cover_avif": f"https://cdn.example.test/media/3f/{KEY}-cover320.avif",
            "cover_small_avif": f"https://cdn.example.test/media/3f/{KEY}-cover160.avif"}
    catalogue = built(raw("a", **avif), raw("b"), raw("c", cover_avif=""))
    assert [item.cover_avif for item in catalogue] == [True, False, False]
    # Typed items keep it too.
    assert [item.cover_avif for item in Catalogue.of(list(catalogue))] == [True, False, False]


def test_one_odd_cover_does_not_spoil_its_page() -> None:
    items = [raw("a"), raw("b", cover="", cover_small=""), raw("c", cover_small="/media/c.webp")]
    catalogue = built(*items)
    assert [(item.cover, item.cover_small) for item in catalogue] == [
        (item["cover"], item["cover_small"]) for item in items
    ]


def test_optional_fields_default_like_the_publisher_means() -> None:
    minimal = {k: v for k, v in raw("a").items() if k not in ("created_at", "cover_small", "alt_titles", "authors",
                                                               "readings", "chapters_count", "genres")}
    item = built(minimal)[0]
    assert item.created_at == item.updated_at
    assert item.cover_small == item.cover
    assert (item.alt_titles, item.authors, item.readings, item.genres, item.chapters) == ((), (), (), (), 0)


@pytest.mark.parametrize(
    "change",
    [{"status": "hiatus"}, {"updated_at": "yesterday"}, {"views": "many"}, {"latest_chapter": None},
     {"alt_titles": ["a\x1fb"]}, {"chapters_count": -1}],
)
def test_a_malformed_item_raises_and_leaves_nothing_behind(change: dict) -> None:
    builder = CatalogueBuilder()
    builder.add(raw("good"))
    with pytest.raises((ValueError, TypeError, KeyError, OverflowError)):
        builder.add(raw("bad", **change))
    builder.add(raw("after"))
    assert [item.slug for item in builder.build()] == ["good", "after"]


def test_genre_names_are_held_once() -> None:
    catalogue = built(*(raw(f"s{n}") for n in range(50)))
    assert catalogue.genre_names == ("ファンタジー", "お仕事")
    assert catalogue[49].genres == ("ファンタジー", "お仕事")


def test_the_snapshot_finds_by_slug_and_keeps_its_orderings() -> None:
    items = [
        raw("b", views=5, updated_at="2026-01-03T00:00:00Z", created_at="2020-01-01T00:00:00Z"),
        raw("a", views=50, updated_at="2026-01-01T00:00:00Z", created_at="2026-01-01T00:00:00Z"),
        raw("c", views=5, updated_at="2026-01-02T00:00:00Z", created_at="2024-01-01T00:00:00Z"),
    ]
    snapshot = Snapshot.build(built(*items), [], "v1")
    assert snapshot.by_slug["c"].slug == "c"
    assert "a" in snapshot.by_slug and "zz" not in snapshot.by_slug and 3 not in snapshot.by_slug
    assert snapshot.by_slug.get("zz") is None
    with pytest.raises(KeyError):
        snapshot.by_slug["zz"]
    assert [item.slug for item in snapshot.popular] == ["a", "b", "c"]  # views, then title
    assert [item.slug for item in snapshot.latest[:2]] == ["b", "c"]
    assert [item.slug for item in snapshot.newest] == ["a", "c", "b"]
    assert [item.slug for item in snapshot.mangas] == ["b", "a", "c"]  # as published


def test_a_list_of_items_becomes_the_same_compact_catalogue() -> None:
    items = list(built(raw("a"), raw("b", status="completed")))
    assert list(Snapshot.build(items, [], "v").mangas) == items


@pytest.mark.parametrize(
    ("published", "moment"),
    [
        ("2026-03-01T12:34:56Z", datetime(2026, 3, 1, 12, 34, 56, tzinfo=UTC)),
        ("2026-03-01T12:34:56", datetime(2026, 3, 1, 12, 34, 56, tzinfo=UTC)),  # no zone: UTC
        ("2026-03-01T21:34:56+09:00", datetime(2026, 3, 1, 12, 34, 56, tzinfo=UTC)),
        ("2026-03-01T12:34:56.123456Z", datetime(2026, 3, 1, 12, 34, 56, 123456, tzinfo=UTC)),
    ],
)
def test_times_come_back_in_utc(published: str, moment: datetime) -> None:
    item = built(raw("a", updated_at=published, created_at=published))[0]
    assert item.updated_at == moment and item.created_at == moment
    assert item.updated_at.utcoffset().total_seconds() == 0


def test_typed_items_come_back_as_given() -> None:
    published = list(built(raw("a"), raw("b", cover_small="", created_at=None, genres=["恋愛"], readings=[])))
    assert list(Catalogue.of(published)) == published
