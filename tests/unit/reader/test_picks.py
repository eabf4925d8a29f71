"""What the end card offers after a series' last chapter (reader/picks.py)."""

from __future__ import annotations

from manga_app.read_models.held import Snapshot
from manga_app.reader.picks import ALSO_READ, POPULAR, SAME_AUTHOR, SAME_GENRES, also_read_counts, pick_next
from tests.unit.search.builders import item


def _picks(items, slug: str, limit: int = 4) -> list[tuple[str, str]]:
    snapshot = Snapshot.build(items, (), "v1")
    catalogue = snapshot.mangas
    found = pick_next(catalogue, catalogue.find(slug), snapshot.popular.ids, limit=limit)
    return [(catalogue.slugs[other], why) for other, why in found]


def test_the_same_author_comes_first_then_most_genres_shared_then_the_most_read() -> None:
    items = [
        item("読了", slug="done", genres=("日常", "コメディ"), authors=("綾瀬",)),
        item("人気", slug="popular", views=900, genres=("SF",)),
        item("一つ", slug="one-genre", views=500, genres=("日常",)),
        item("二つ", slug="two-genres", views=10, genres=("日常", "コメディ")),
        item("同じ人", slug="same-author", views=1, genres=("ホラー",), authors=("綾瀬",)),
    ]
    assert _picks(items, "done") == [
        ("same-author", SAME_AUTHOR), ("two-genres", SAME_GENRES), ("one-genre", SAME_GENRES), ("popular", POPULAR),
    ]
    assert _picks(items, "done", limit=2) == [("same-author", SAME_AUTHOR), ("two-genres", SAME_GENRES)]


def test_a_series_alone_in_the_catalogue_has_nothing_to_offer() -> None:
    assert _picks([item("一つだけ", slug="alone")], "alone") == []


def _also(items, slug: str, readers: dict[str, tuple[str, ...]], limit: int = 4) -> list[tuple[str, str]]:
    snapshot = Snapshot.build(items, (), "v1")
    catalogue = snapshot.mangas
    counts = also_read_counts(slug, readers)
    found = pick_next(catalogue, catalogue.find(slug), snapshot.popular.ids, limit=limit,
                      also_read={catalogue.find(other): count for other, count in counts.items()})
    return [(catalogue.slugs[other], why) for other, why in found]


def test_what_readers_also_read_comes_first_most_shared_first_then_the_fallback_fills_the_card() -> None:
    items = [
        item("読了", slug="done", genres=("日常",), authors=("綾瀬",)),
        item("同じ人", slug="same-author", views=1, genres=("ホラー",), authors=("綾瀬",)),
        item("人気", slug="popular", views=900, genres=("SF",)),
        item("一人", slug="one-reader", views=800, genres=("SF",)),
        item("二人", slug="two-readers", views=5, genres=("SF",)),
    ]
    readers = {"a": ("done", "two-readers", "one-reader"), "b": ("done", "two-readers"), "c": ("done",)}
    assert also_read_counts("done", readers) == {"two-readers": 2, "one-reader": 1}
    assert _also(items, "done", readers) == [
        ("two-readers", ALSO_READ), ("one-reader", ALSO_READ), ("same-author", SAME_AUTHOR), ("popular", POPULAR),
    ]
    assert _also(items, "done", readers, limit=1) == [("two-readers", ALSO_READ)]
    # No history: today's picks.
    assert _also(items, "done", {"c": ("done",)})[0] == ("same-author", SAME_AUTHOR)
