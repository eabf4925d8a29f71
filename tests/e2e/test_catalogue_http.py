"""The published catalogue and the media store as HTTP clients see them, and
an import while the site runs (issue 3)."""

from __future__ import annotations

import gzip
import io
import json
import sqlite3
import subprocess
import time
import zipfile
from datetime import datetime
from pathlib import Path

import httpx
from PIL import Image

from manga_app.core import routes
from manga_app.core.crypto import decrypt_text
from manga_app.demo.catalogue_data import CATALOGUE
from tests.e2e.conftest import DEMO_SERIES, ROOT

DEMO_TITLES = {series.title for series in CATALOGUE}

LIST_FIELDS = {
    "slug": str, "title": str, "alt_titles": list, "cover": str, "genres": list,
    "status": str, "latest_chapter": (int, float), "updated_at": str, "views": int,
}


def test_genres_json_follows_the_contract(base_url: str) -> None:
    response = httpx.get(base_url + "/genres.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    genres = response.json()
    assert genres and all(set(genre) == {"name", "total"} for genre in genres)
    assert all(genre["name"].strip() and isinstance(genre["total"], int) and genre["total"] > 0 for genre in genres)


def test_manga_list_pages_follow_the_contract_in_the_order_series_were_added_until_a_404(
    base_url: str, server_env: dict[str, str]
) -> None:
    items, page = [], 1
    while (response := httpx.get(f"{base_url}/mangas_{page}.json")).status_code == 200:
        body = response.json()
        assert list(body) == ["list"]
        items += body["list"]
        page += 1
    assert response.status_code == 404 and page > 1
    for item in items:
        for name, kind in LIST_FIELDS.items():
            assert isinstance(item[name], kind), (name, item[name])
        assert item["status"] in ("ongoing", "completed")
        assert item["updated_at"].endswith("Z")
        datetime.fromisoformat(item["updated_at"].replace("Z", "+00:00"))
    # Every listed series once, in the order they were added: an update to
    # one series rewrites only its own page (the app sorts as it shows them).
    database = server_env["REFLEX_DB_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(database) as db:
        added = [slug for (slug,) in db.execute(
            "select slug from series where exists (select 1 from chapter where series_id = series.id) order by id")]
    assert [item["slug"] for item in items] == added
    for bad in ("0", "-1", "01", "abc", "1.5", "99999999999"):
        assert httpx.get(f"{base_url}/mangas_{bad}.json").status_code == 404, bad


def _raw(url: str, accept: str, etag: str | None = None) -> tuple[httpx.Response, bytes]:
    """A response and its body exactly as sent (httpx would undo one gzip layer)."""
    headers = {"Accept-Encoding": accept, **({"If-None-Match": etag} if etag else {})}
    with httpx.stream("GET", url, headers=headers) as response:
        return response, b"".join(response.iter_raw())


def test_lists_are_precompressed_revalidate_per_encoding_and_cache(
    base_url: str, server_env: dict[str, str]
) -> None:
    published = Path(server_env["DATA_DIR"]) / "published"
    for name in ("mangas_1.json", "genres.json"):
        zipped, body = _raw(f"{base_url}/{name}", "gzip, deflate, br")
        # The publisher's twin, byte for byte: compressed once, ahead of time
        assert zipped.headers["content-encoding"] == "gzip"
        assert body == (published / f"{name}.gz").read_bytes()
        assert gzip.decompress(body) == (published / name).read_bytes()
        plain, plain_body = _raw(f"{base_url}/{name}", "identity")
        assert "content-encoding" not in plain.headers
        assert plain_body == (published / name).read_bytes()
        for response in (zipped, plain):
            assert "Accept-Encoding" in [v.strip() for v in response.headers["vary"].split(",")]
            assert "max-age" in response.headers["cache-control"]
        assert zipped.headers["etag"] != plain.headers["etag"]
        for accept, etag in (("gzip", zipped.headers["etag"]), ("identity", plain.headers["etag"])):
            again, again_body = _raw(f"{base_url}/{name}", accept, etag)
            assert (again.status_code, again_body) == (304, b""), (name, accept)
        crossed, _ = _raw(f"{base_url}/{name}", "identity", zipped.headers["etag"])
        assert crossed.status_code == 200


def test_pages_sent_compressed_are_the_pages_sent_plain(base_url: str) -> None:
    # Compressed once per cached page (web/pages.py): each page keeps its own bytes.
    slug = httpx.get(base_url + "/mangas_1.json").json()["list"][0]["slug"]
    for path, status in ((f"/manga/{slug}", 200), ("/search?q=", 200), ("/no-such-page", 404)):
        first, first_body = _raw(base_url + path, "gzip, deflate, br")
        again, again_body = _raw(base_url + path, "gzip")
        plain, plain_body = _raw(base_url + path, "identity")
        assert (first.status_code, again.status_code, plain.status_code) == (status, status, status), path
        assert first.headers["content-encoding"] == again.headers["content-encoding"] == "gzip"
        assert again_body == first_body, path
        assert "content-encoding" not in plain.headers
        assert gzip.decompress(first_body) == plain_body, path
        for response in (first, plain):
            assert "Accept-Encoding" in [v.strip() for v in response.headers["vary"].split(",")]


def test_media_is_immutable_and_answers_range_requests(base_url: str) -> None:
    cover = httpx.get(base_url + "/mangas_1.json").json()["list"][0]["cover"]
    full = httpx.get(base_url + cover)
    assert full.status_code == 200
    assert full.headers["content-type"] == "image/webp"
    assert full.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "content-encoding" not in full.headers
    part = httpx.get(base_url + cover, headers={"Range": "bytes=0-99"})
    assert part.status_code == 206 and part.content == full.content[:100]
    not_modified = httpx.get(base_url + cover, headers={"If-None-Match": full.headers["etag"]})
    assert not_modified.status_code == 304
    assert httpx.get(base_url + "/media/00/" + "0" * 64 + ".webp").status_code == 404
    assert httpx.get(base_url + "/media/../content_key").status_code == 404


def test_chapter_manifests_decrypt_to_the_page_list(base_url: str, server_env: dict[str, str]) -> None:
    item = httpx.get(base_url + "/mangas_1.json").json()["list"][0]
    number = routes.format_chapter_number(item["latest_chapter"])
    manifest = httpx.get(f"{base_url}/manifests/{item['slug']}/{number}.json").json()
    key = (Path(server_env["DATA_DIR"]) / "content_key").read_text().strip()
    pages = json.loads(decrypt_text(manifest["data"], key, manifest["iv"]))
    assert pages and all(page["width"] > 0 and page["height"] > 0 for page in pages)
    image = httpx.get(base_url + pages[0]["url"])
    assert image.status_code == 200 and Image.open(io.BytesIO(image.content)).size == (pages[0]["width"], pages[0]["height"])
    assert decrypt_text(manifest["data"], "ab" * 32, manifest["iv"]) == ""
    assert httpx.get(f"{base_url}/manifests/{item['slug']}/9999.json").status_code == 404
    assert httpx.get(f"{base_url}/manifests/..%2F..%2Fcontent_key/1.json").status_code == 404


def _write_cbz(path: Path, *, series: str, genre: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for index in range(3):
            image = Image.new("RGB", (600, 850), (255, 255 - 40 * index, 255))
            buffer = io.BytesIO()
            image.save(buffer, "JPEG")
            archive.writestr(f"{index + 1:03}.jpg", buffer.getvalue())
        archive.writestr(
            "ComicInfo.xml",
            f"<?xml version='1.0' encoding='utf-8'?><ComicInfo><Series>{series}</Series><Number>1</Number>"
            f"<Title>はじまり</Title><Genre>{genre}</Genre><LanguageISO>ja</LanguageISO>"
            "<Manga>YesAndRightToLeft</Manga></ComicInfo>",
        )


def test_an_import_while_the_site_runs_shows_up_without_a_restart(base_url: str, server_env: dict[str, str], tmp_path: Path) -> None:
    genre = "テスト追加ジャンル"
    assert httpx.get(base_url + routes.genre_url(genre)).status_code == 404
    _write_cbz(tmp_path / "追加された作品" / "追加された作品 第1話.cbz", series="追加された作品", genre=genre)
    imported = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(tmp_path)],
        cwd=ROOT, env=server_env, capture_output=True, text=True,
    )
    assert imported.returncode == 0, imported.stdout + imported.stderr
    titles = [item["title"] for item in httpx.get(base_url + "/mangas_1.json").json()["list"]]
    assert "追加された作品" in titles
    assert any(g["name"] == genre for g in httpx.get(base_url + "/genres.json").json())
    # The held catalogue (genre pages are resolved from it) catches up by itself.
    deadline = time.monotonic() + 30
    while httpx.get(base_url + routes.genre_url(genre)).status_code != 200:
        assert time.monotonic() < deadline, "the held catalogue never saw the import"
        time.sleep(0.5)


def test_the_demo_is_alive_every_popular_title_has_readers(base_url: str, page) -> None:
    items = []
    page_number = 1
    while (response := httpx.get(f"{base_url}/mangas_{page_number}.json")).status_code == 200:
        items += response.json()["list"]
        page_number += 1
    demo = [item for item in items if item["title"] in DEMO_TITLES]
    assert len(demo) == DEMO_SERIES and all(item["views"] > 0 for item in demo)
    page.goto(base_url + "/")
    shelf = page.get_by_role("list", name="人気")
    shelf.locator(".card-meta").first.wait_for()
    cards = {
        card.locator(".card-title").inner_text(): card.locator(".card-meta").inner_text()
        for card in shelf.locator(".card").all()
    }
    shown = {title: meta for title, meta in cards.items() if title in DEMO_TITLES}
    assert shown and all(meta.startswith("閲覧") and meta != "閲覧 0" for meta in shown.values()), cards
