"""A local catalogue (CATALOGUE_URL unset) is read from the published folder
itself: the held catalogue and the reader's manifests need no server to
answer, not even the site's own (nothing listens on PORT here)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
from pathlib import Path

import httpx
import pytest

from manga_app.core.crypto import encrypt_text
from manga_app.read_models import held
from manga_app.read_models.published import LOCAL_BASE, PublishedFolder
from manga_app.reader import manifest
from tests.unit.read_models.test_loader import _item
from tests.unit.read_models.test_loader import _publish as publish_lists

KEY = secrets.token_hex(32)
PAGES = [{"url": "/media/a.webp", "saver_url": "/media/a-s.webp", "width": 800, "height": 1200}]


def _publish(folder: Path, slugs: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    publish_lists(folder, [[_item(slug) for slug in slugs]], [{"name": "アクション", "total": len(slugs)}])


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def local_site(clean_settings: Path, configure, monkeypatch) -> Path:
    configure(DATA_DIR=clean_settings, PORT=_closed_port(), CONTENT_KEY=KEY, CATALOGUE_REFRESH_SECONDS=0)
    monkeypatch.setattr(held, "_HELD", None)
    return clean_settings / "published"


def test_the_held_catalogue_reads_a_local_catalogue_from_its_folder_and_sees_a_publish(local_site):
    _publish(local_site, ["a", "b"])

    async def scenario():
        first = await held.held_catalogue().snapshot()
        _publish(local_site, ["a", "b", "c"])
        os.utime(local_site / "mangas_1.json", (2_000_000_000, 2_000_000_000))
        return first, await held.held_catalogue().refresh()

    first, changed = asyncio.run(scenario())
    assert sorted(item.slug for item in first.latest) == ["a", "b"]
    assert [genre.name for genre in first.genres] == ["アクション"]
    assert sorted(item.slug for item in changed.latest) == ["a", "b", "c"]


def test_the_reader_decrypts_a_local_manifest_from_its_folder(local_site):
    data, iv = encrypt_text(json.dumps(PAGES), KEY)
    (local_site / "manifests" / "alpha").mkdir(parents=True)
    (local_site / "manifests" / "alpha" / "3.json").write_text(json.dumps({"iv": iv, "data": data}), encoding="utf-8")
    assert asyncio.run(manifest.chapter_pages("alpha", "3", None)) == PAGES
    assert asyncio.run(manifest.chapter_pages("alpha", "4", None)) is None


@pytest.mark.parametrize("path", ["/../secret.json", "/%2e%2e/secret.json", "/manifests", "/missing.json"])
def test_the_folder_answers_nothing_outside_it_and_no_folder(tmp_path: Path, path: str):
    (tmp_path / "secret.json").write_text("{}")
    (tmp_path / "published" / "manifests").mkdir(parents=True)

    async def ask():
        async with httpx.AsyncClient(base_url=LOCAL_BASE, transport=PublishedFolder(tmp_path / "published")) as client:
            return (await client.get(path)).status_code

    assert asyncio.run(ask()) == 404
