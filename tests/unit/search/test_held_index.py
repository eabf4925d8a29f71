"""The process's search index after a publish: visitors keep searching the
previous catalogue while the new index is built, then get the new one."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from manga_app.read_models import held
from manga_app.search.query import Query
from manga_app.search import held_index


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def _publish(folder: Path, titles: list[str], when: int) -> None:
    items = [
        {"slug": f"s{n}", "title": title, "alt_titles": [], "cover": "/c.webp", "genres": ["日常"],
         "status": "ongoing", "latest_chapter": 1, "updated_at": "2026-01-01T00:00:00Z", "views": n,
         "readings": []}
        for n, title in enumerate(titles)
    ]
    (folder / "genres.json").write_text(json.dumps([{"name": "日常", "total": len(items)}]), encoding="utf-8")
    (folder / "mangas_1.json").write_text(json.dumps({"list": items}, ensure_ascii=False), encoding="utf-8")
    for name in ("genres.json", "mangas_1.json"):
        os.utime(folder / name, (when, when))


@pytest.fixture
def site(tmp_path: Path, monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # This process's held catalogue and index, as the backend keeps them, on this site.
    monkeypatch.setattr(held, "_HELD", held.HeldCatalogue(f"http://127.0.0.1:{server.server_address[1]}", refresh_seconds=0))
    monkeypatch.setattr(held_index, "_current", None)
    monkeypatch.setattr(held_index, "_building", None)
    try:
        yield tmp_path
    finally:
        server.shutdown()
        server.server_close()


def titles(pair) -> list[str]:
    _, index = pair
    return [item.title for item in index.search(Query(sort="title", per_page=50), []).items]


def test_a_big_catalogue_keeps_its_old_index_answering_until_the_new_one_is_ready(site: Path, monkeypatch) -> None:
    monkeypatch.setattr(held_index, "_THREAD_ABOVE", 0)  # every catalogue counts as big
    _publish(site, ["星の街", "猫の森"], when=1_900_000_000)

    async def scenario():
        first = await held_index.current_index()
        _publish(site, ["星の街", "猫の森", "海の王国"], when=2_000_000_000)
        await held.held_catalogue().refresh()  # the publish is noticed
        during = await held_index.current_index()  # answers at once, from the old index
        await held_index._building  # the new index, built meanwhile
        after = await held_index.current_index()
        return first, during, after

    first, during, after = asyncio.run(scenario())
    assert sorted(titles(first)) == ["星の街", "猫の森"]
    assert during[1] is first[1], "searches are not held up by the rebuild"
    assert sorted(titles(after)) == ["星の街", "海の王国", "猫の森"]
    assert after[0].mangas is after[1].catalogue, "the snapshot and its index go together"


def test_a_small_catalogue_shows_a_publish_at_once(site: Path) -> None:
    _publish(site, ["星の街", "猫の森"], when=1_900_000_000)

    async def scenario():
        await held_index.current_index()
        _publish(site, ["星の街", "猫の森", "海の王国"], when=2_000_000_000)
        await held.held_catalogue().refresh()
        return await held_index.current_index()

    after = asyncio.run(scenario())
    assert sorted(titles(after)) == ["星の街", "海の王国", "猫の森"]
    assert after[0].mangas is after[1].catalogue


def test_related_series_of_a_big_catalogue_need_its_memberships_never_the_search_index(site: Path, monkeypatch) -> None:
    """関連作品 of a title page: the catalogue's memberships are built in a
    thread (a fraction of a second at 100,000 series), never the search index
    (tens of seconds, in a thread that slowed every page meanwhile); the index,
    when a search needs it, is built on the same memberships."""
    monkeypatch.setattr(held_index, "_THREAD_ABOVE", 0)  # every catalogue counts as big
    monkeypatch.setattr(held_index, "_members", None)
    monkeypatch.setattr(held_index, "_members_building", None)
    _publish(site, ["星の街", "猫の森"], when=1_900_000_000)

    async def scenario():
        before = await held_index.ready_memberships()  # not built yet: no wait
        await held_index._members_building
        members = await held_index.ready_memberships()
        no_index = held_index._current is None and held_index._building is None
        _, index = await held_index.current_index()
        return before, members, no_index, index

    before, members, no_index, index = asyncio.run(scenario())
    assert before is None
    assert members.catalogue is held.held_catalogue().current.mangas
    assert no_index, "no search index was built for them"
    assert index.members is members
