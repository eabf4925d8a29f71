"""The published JSON over HTTP, through the site's real HTTP layer (gzip middleware
included): precompressed twins for clients that take gzip, plain bytes otherwise,
one ETag per variant, and 304s for each."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from sqlmodel import Session
from starlette.responses import PlainTextResponse
from starlette.testclient import TestClient

from manga_app.catalogue.models import Chapter, Genre, Page, Series, SeriesGenre
from manga_app.catalogue.publisher import publish_catalogue
from manga_app.web.middleware import site_http_layer

GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


@pytest.fixture
def published(tmp_path: Path, engine, content_key, configure) -> Path:
    """A data folder with 40 published series (list pages of several KB)."""
    with Session(engine) as session:
        genre = Genre(name="日常")
        session.add(genre)
        for n in range(40):
            series = Series(slug=f"series-{n}", title=f"作品{n}", title_key=f"作品{n}",
                            alt_titles=[f"別名{n}"], summary="あらすじ" * 20)
            session.add(series)
            session.flush()
            session.add(SeriesGenre(series_id=series.id, genre_id=genre.id))
            chapter = Chapter(series_id=series.id, number_hundredths=100)
            session.add(chapter)
            session.flush()
            for index in range(30):
                session.add(Page(chapter_id=chapter.id, index=index, media_key=f"{n:02d}{index:062x}",
                                 ext="png", width=800, height=1200, bytes=1))
        session.commit()
        publish_catalogue(session=session, out_dir=tmp_path / "published", content_key=content_key,
                          media_base_url="/media")
    configure(DATA_DIR=tmp_path)
    return tmp_path / "published"


@pytest.fixture
def client(published: Path) -> TestClient:
    return TestClient(site_http_layer(PlainTextResponse("reflex")))


def test_a_client_taking_gzip_gets_the_precompressed_twin_untouched(client, published):
    response = client.get("/mangas_1.json", headers=GZIP)
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["vary"] == "Accept-Encoding"
    # httpx undoes one gzip layer: compressed twice, this would still be gzip bytes
    assert response.content == (published / "mangas_1.json").read_bytes()
    assert int(response.headers["content-length"]) == (published / "mangas_1.json.gz").stat().st_size
    assert json.loads(response.content)["list"][0]["slug"].startswith("series-")


@pytest.mark.parametrize("accept", ["identity", "", "br", "gzip;q=0"])
def test_other_clients_get_the_plain_file(client, published, accept):
    response = client.get("/genres.json", headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert "content-encoding" not in response.headers or accept == "gzip;q=0"
    assert response.content == (published / "genres.json").read_bytes()
    assert response.headers["vary"] == "Accept-Encoding"


def test_each_variant_has_its_own_etag_and_answers_304(client):
    zipped = client.get("/mangas_1.json", headers=GZIP)
    plain = client.get("/mangas_1.json", headers=PLAIN)
    assert zipped.headers["etag"] != plain.headers["etag"]
    for headers, etag in ((GZIP, zipped.headers["etag"]), (PLAIN, plain.headers["etag"])):
        again = client.get("/mangas_1.json", headers={**headers, "If-None-Match": etag})
        assert (again.status_code, again.content) == (304, b"")
        assert again.headers["etag"] == etag and again.headers["vary"] == "Accept-Encoding"
    # The other variant's ETag does not validate this one
    crossed = client.get("/mangas_1.json", headers={**PLAIN, "If-None-Match": zipped.headers["etag"]})
    assert crossed.status_code == 200 and crossed.content


def test_head_says_how_long_the_chosen_variant_is(client, published):
    zipped = client.head("/mangas_1.json", headers=GZIP)
    plain = client.head("/mangas_1.json", headers=PLAIN)
    assert int(zipped.headers["content-length"]) == (published / "mangas_1.json.gz").stat().st_size
    assert int(plain.headers["content-length"]) == (published / "mangas_1.json").stat().st_size


def test_a_republished_page_gets_a_new_etag(client, published):
    before = client.get("/mangas_1.json", headers=GZIP).headers["etag"]
    twin = published / "mangas_1.json.gz"
    twin.write_bytes(gzip.compress((published / "mangas_1.json").read_bytes() + b" "))
    after = client.get("/mangas_1.json", headers={**GZIP, "If-None-Match": before})
    assert after.status_code == 200 and after.headers["etag"] != before


def test_manifests_without_a_twin_are_compressed_on_the_fly_with_a_weak_etag(client, published):
    manifest = published / "manifests" / "series-1" / "1.json"
    response = client.get("/manifests/series-1/1.json", headers=GZIP)
    assert response.status_code == 200 and response.content == manifest.read_bytes()
    assert response.headers["content-encoding"] == "gzip"
    etag = response.headers["etag"]
    assert etag.startswith('W/"')
    again = client.get("/manifests/series-1/1.json", headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304


@pytest.mark.parametrize("path", ["/manifests/" + "a" * 300 + "/1.json", "/mangas_1" + "0" * 8 + ".json",
                                  "/manifests/series-1/" + "1" * 7 + ".json"])
def test_a_name_longer_than_any_published_file_is_not_found_not_an_error(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.json() == {"error": "not found"}


def test_a_volume_manifest_is_served_as_n_vol_and_never_by_its_key(client, published):
    folder = published / "manifests" / "series-1"
    for name in ("1-vol.json", "1000001.json", "01.json", "1-VOL.json"):  # the last three as if left by hand
        (folder / name).write_text('{"iv": "", "data": ""}')
    assert client.get("/manifests/series-1/1-vol.json").status_code == 200
    for name in ("1000001", "01", "1-VOL", "1-vol-vol", "1-ch", "-1", "1e3", "nan", "1.json"):
        response = client.get(f"/manifests/series-1/{name}.json")
        assert response.status_code == 404 and response.json() == {"error": "not found"}, name
