"""The spec's list loading against a real HTTP server on loopback."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import logging
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from manga_app.read_models.held import HeldCatalogue
from manga_app.read_models.loader import CatalogueLoader, keep_genre


def _item(slug: str, *, views: int = 0, updated: str = "2026-01-01T00:00:00Z") -> dict:
    return {
        "slug": slug,
        "title": f"タイトル{slug}",
        "alt_titles": [f"alias {slug}"],
        "cover": f"/media/{slug}.webp",
        "genres": ["アクション"],
        "status": "ongoing",
        "latest_chapter": 3,
        "updated_at": updated,
        "views": views,
        "readings": [{"text": "x", "hiragana": "たいとる", "katakana": "タイトル", "romaji": "taitoru"}],
    }


class _Handler(SimpleHTTPRequestHandler):
    """Serves the folder; paths listed in `failing` answer 500."""

    failing: set[str] = set()
    requested: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 — http.server's naming
        self.requested.append(self.path)
        if self.path in self.failing:
            self.send_error(500)
            return
        super().do_GET()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Path, type[_Handler]]]:
    handler = type("Handler", (_Handler,), {"failing": set(), "requested": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", tmp_path, handler
    finally:
        server.shutdown()
        server.server_close()


def _publish(folder: Path, pages: list[list[dict]], genres: list) -> None:
    (folder / "genres.json").write_text(json.dumps(genres, ensure_ascii=False), encoding="utf-8")
    for number, items in enumerate(pages, start=1):
        (folder / f"mangas_{number}.json").write_text(json.dumps({"list": items}, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ({"name": "恋愛", "total": 3}, True),
        ({"name": "", "total": 3}, False),
        ({"name": "   ", "total": 3}, False),
        ({"name": None, "total": 3}, False),
        ({"total": 3}, False),
        ({"name": "恋愛", "total": 0}, False),
        ({"name": "恋愛", "total": -1}, False),
        ({"name": "恋愛", "total": None}, False),
        ({"name": "恋愛", "total": True}, False),
        ({"name": "恋愛", "total": 0.5}, False),
        ({"name": "恋愛", "total": 2.5}, False),
        ({"name": "恋愛", "total": "3"}, False),
        ({"name": "恋愛", "total": 3.0}, True),
        ("恋愛", False),
    ],
    ids=["valid", "empty-name", "blank-name", "null-name", "no-name", "zero", "negative", "null-total", "bool-total",
         "half", "fraction", "string-total", "whole-float", "not-an-object"],
)
def test_genres_with_an_empty_name_or_no_titles_are_dropped(raw: object, kept: bool) -> None:
    assert (keep_genre(raw) is not None) is kept


def test_pages_are_fetched_in_order_until_one_is_not_found_then_concatenated(site) -> None:
    url, folder, handler = site
    _publish(folder, [[_item("a"), _item("b")], [_item("c")]], [{"name": "アクション", "total": 3}])
    loader = CatalogueLoader(url)
    assert asyncio.run(loader.load_mangas()) is True
    assert [item.slug for item in loader.mangas] == ["a", "b", "c"]
    assert handler.requested == ["/mangas_1.json", "/mangas_2.json", "/mangas_3.json"]
    assert loader.mangas[0].readings == ("たいとる", "タイトル", "taitoru")
    assert gc.isenabled()  # paused only while each page is parsed


def test_an_empty_page_ends_the_loading(site) -> None:
    url, folder, handler = site
    _publish(folder, [[_item("a")], [], [_item("never")]], [])
    loader = CatalogueLoader(url)
    assert asyncio.run(loader.load_mangas()) is True
    assert [item.slug for item in loader.mangas] == ["a"]
    assert "/mangas_3.json" not in handler.requested


def test_a_failing_page_ends_the_loading_like_a_missing_one(site) -> None:
    url, folder, handler = site
    _publish(folder, [[_item("a")], [_item("b")]], [])
    handler.failing.add("/mangas_2.json")
    loader = CatalogueLoader(url)
    assert asyncio.run(loader.load_mangas()) is True
    assert [item.slug for item in loader.mangas] == ["a"]


def test_the_manga_list_loads_only_when_empty(site) -> None:
    url, folder, handler = site
    _publish(folder, [[_item("a")]], [])
    loader = CatalogueLoader(url)
    asyncio.run(loader.load_mangas())
    handler.requested.clear()
    assert asyncio.run(loader.load_mangas()) is True
    assert handler.requested == []


def test_a_broken_list_is_logged_and_initialisation_returns_false(site, caplog) -> None:
    url, folder, _ = site
    (folder / "mangas_1.json").write_text("{not json", encoding="utf-8")
    loader = CatalogueLoader(url)
    with caplog.at_level(logging.ERROR):
        assert asyncio.run(loader.load_mangas()) is False
    assert len(loader.mangas) == 0
    assert any(record.getMessage().startswith("Failed to load or initialize search:") for record in caplog.records)
    assert gc.isenabled()


def test_an_unreachable_server_is_logged_and_returns_false(caplog) -> None:
    loader = CatalogueLoader("http://127.0.0.1:9", timeout=2)
    with caplog.at_level(logging.ERROR):
        assert asyncio.run(loader.load_mangas()) is False
    assert "Failed to load or initialize search:" in caplog.text


def test_genres_load_lazily_and_a_failure_is_only_logged(site, caplog) -> None:
    url, folder, handler = site
    handler.failing.add("/genres.json")
    loader = CatalogueLoader(url)
    with caplog.at_level(logging.ERROR):
        assert asyncio.run(loader.load_genres()) == []
    assert "Failed to load genres" in caplog.text
    handler.failing.clear()
    _publish(folder, [], [{"name": "恋愛", "total": 2}, {"name": "", "total": 5}, {"name": "SF", "total": 0}])
    assert [genre.name for genre in asyncio.run(loader.load_genres())] == ["恋愛"]
    handler.requested.clear()
    asyncio.run(loader.load_genres())
    assert handler.requested == []


def test_the_held_catalogue_is_shared_and_refreshed_when_the_published_lists_change(site) -> None:
    url, folder, handler = site
    _publish(folder, [[_item("a", views=5), _item("b", views=50)]], [{"name": "アクション", "total": 2}])
    held = HeldCatalogue(url, refresh_seconds=0)

    async def scenario():
        first = await held.snapshot()
        again = await held.snapshot()
        _publish(folder, [[_item("c", updated="2026-02-01T00:00:00Z"), _item("a"), _item("b")]], [{"name": "アクション", "total": 3}])
        os.utime(folder / "mangas_1.json", (2_000_000_000, 2_000_000_000))
        stale = await held.snapshot()  # answers at once; the reload runs in the background
        changed = await held.refresh()
        return first, again, changed, stale

    first, again, changed, stale = asyncio.run(scenario())
    assert stale is first
    assert again is first, "an unchanged catalogue is not reloaded"
    assert [item.slug for item in first.popular] == ["b", "a"]
    assert first.by_slug["a"].title == "タイトルa"
    assert [item.slug for item in changed.latest][0] == "c"
    assert changed.genres[0].total == 3


def test_a_malformed_item_fails_the_whole_load(site, caplog) -> None:
    url, folder, _ = site
    broken = _item("b")
    broken["status"] = "hiatus"
    _publish(folder, [[_item("a")], [broken]], [])
    loader = CatalogueLoader(url)
    with caplog.at_level(logging.ERROR):
        assert asyncio.run(loader.load_mangas()) is False
    assert len(loader.mangas) == 0
    assert "Failed to load or initialize search:" in caplog.text
    assert gc.isenabled()


def test_genres_are_not_fetched_again_while_held_and_unchanged(site) -> None:
    url, folder, handler = site
    _publish(folder, [[_item("a")]], [{"name": "アクション", "total": 1}])
    held = HeldCatalogue(url, refresh_seconds=0)

    async def scenario():
        await held.refresh()
        handler.requested.clear()
        await held.refresh()
        return held.current

    snapshot = asyncio.run(scenario())
    assert [genre.name for genre in snapshot.genres] == ["アクション"]
    assert "/genres.json" not in handler.requested
    assert "/mangas_1.json" not in handler.requested  # unchanged list: only checked (HEAD is not logged)


def test_a_failed_genre_list_is_loaded_on_a_later_check(site, caplog) -> None:
    url, folder, handler = site
    _publish(folder, [[_item("a")]], [{"name": "アクション", "total": 1}])
    handler.failing.add("/genres.json")
    held = HeldCatalogue(url, refresh_seconds=0)

    async def scenario():
        first = await held.refresh()
        handler.failing.clear()
        second = await held.refresh()
        return first, second

    with caplog.at_level(logging.ERROR):
        first, second = asyncio.run(scenario())
    assert first.genres == () and "Failed to load genres" in caplog.text
    assert [item.slug for item in first.mangas] == ["a"], "a genre failure does not stop the list"
    assert [genre.name for genre in second.genres] == ["アクション"]
    assert second.mangas is first.mangas, "the unchanged list is not loaded again"
