"""What an app downloads: a unit's CBZ holds the published pages, in
order, byte for byte, with a ComicInfo.xml describing it; PSE gives the
same pages one at a time, smaller when the app asks for a width."""

from __future__ import annotations

import hashlib
import io
import time
import zipfile

import pytest
from PIL import Image
from sqlmodel import Session, select

from manga_app.catalogue.comicinfo import parse_comicinfo
from manga_app.core.db import make_engine
from manga_app.catalogue.models import Chapter, Page, Series

RTL, VERTICAL = "neko-machi-hiyori", "okujounouen-gaaruzu"


@pytest.fixture(scope="module")
def published(site):
    """(slug, unit key) -> the sha256 of each published page, in reading order."""
    engine = make_engine(f"sqlite:///{site / 'opds.db'}")
    with Session(engine) as session:
        rows = session.exec(
            select(Series.slug, Chapter.number_hundredths, Page.media_key)
            .join(Chapter, Chapter.series_id == Series.id).join(Page, Page.chapter_id == Chapter.id)
            .order_by(Series.slug, Chapter.number_hundredths, Page.index)
        ).all()
    engine.dispose()
    pages: dict[tuple[str, int], list[str]] = {}
    for slug, hundredths, key in rows:
        pages.setdefault((slug, hundredths // 100), []).append(key)
    return pages


def cbz(client, slug: str, number: int) -> zipfile.ZipFile:
    response = client.get(f"/opds/series/{slug}/{number}.cbz")
    assert response.status_code == 200, response.text
    assert f"{slug}-{number}.cbz" in response.headers["content-disposition"]
    return zipfile.ZipFile(io.BytesIO(response.content))


def test_the_cbz_holds_every_published_page_in_order_byte_for_byte(client, published):
    archive = cbz(client, RTL, 2)
    pages = [name for name in archive.namelist() if name != "ComicInfo.xml"]
    assert pages == sorted(pages)
    assert [hashlib.sha256(archive.read(name)).hexdigest() for name in pages] == published[(RTL, 2)]


def test_the_comicinfo_names_the_series_number_title_authors_genres_and_reading_direction(client):
    info_rtl = parse_comicinfo(cbz(client, RTL, 1).read("ComicInfo.xml"))
    assert info_rtl.series == "ねこまち日和"
    assert info_rtl.number == "1" and info_rtl.title == "ふたつの影"
    assert info_rtl.writers == ["小日向こはる"]
    assert set(info_rtl.genres) == {"コメディ", "日常"}
    assert info_rtl.summary
    assert info_rtl.manga == "yes_rtl"  # Manga=YesAndRightToLeft, as the importer reads it
    info_vertical = parse_comicinfo(cbz(client, VERTICAL, 1).read("ComicInfo.xml"))
    assert info_vertical.manga == "yes"


def published_sizes(client, slug: str, number: int) -> list[tuple[int, int]]:
    archive = cbz(client, slug, number)
    return [Image.open(io.BytesIO(archive.read(name))).size for name in archive.namelist() if name != "ComicInfo.xml"]


def pse_page(client, href: str) -> Image.Image:
    """A PSE page: always JPEG (PSE allows JPEG, GIF and PNG; the stream link declares image/jpeg)."""
    response = client.get(href)
    assert response.status_code == 200, href
    assert response.headers["content-type"] == "image/jpeg"
    image = Image.open(io.BytesIO(response.content))
    assert image.format == "JPEG"
    return image


def test_pse_serves_pages_0_to_n_minus_1_as_published_and_smaller_on_request(client):
    sizes = published_sizes(client, RTL, 1)
    assert [pse_page(client, f"/opds/series/{RTL}/1/pages/{index}").size for index in range(len(sizes))] == sizes
    assert pse_page(client, f"/opds/series/{RTL}/1/pages/0?maxWidth=600").width <= min(sizes[0][0], 1200)
    assert client.get(f"/opds/series/{RTL}/1/pages/{len(sizes)}").status_code == 404


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/opds/series/no-such-series", 404),
        ("/opds/series/no-such-series/1.cbz", 404),
        (f"/opds/series/{RTL}/999.cbz", 404),
        (f"/opds/series/{RTL}/abc.cbz", 404),
        (f"/opds/series/{RTL}/1/pages/-1", 400),
        (f"/opds/series/{RTL}/1/pages/x", 400),
        (f"/opds/series/{RTL}/1/pages/0?maxWidth=wide", 400),
        (f"/opds/series/{RTL}/1/pages/0?maxWidth=0", 400),
        ("/opds/new?page=0", 400),
        ("/opds/new?page=two", 400),
        ("/opds/new?page=99", 404),
        ("/opds/genres/no-such-genre", 404),
        ("/opds/authors/nobody", 404),
        ("/opds/kana/zz", 404),
        ("/opds/search?q=", 400),
        ("/opds/no-such-feed", 404),
    ],
)
def test_bad_requests_get_their_status_and_a_japanese_reason(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("text/plain")
    assert any("\u3040" <= char <= "\u30ff" for char in response.text), response.text


def test_a_huge_max_width_is_the_full_size_page(client):
    page = pse_page(client, f"/opds/series/{RTL}/1/pages/0?maxWidth=999999999")
    assert page.size == published_sizes(client, RTL, 1)[0]


def test_the_same_unit_downloads_as_the_same_bytes_with_a_strong_etag(client):
    first = client.get(f"/opds/series/{RTL}/1.cbz")
    time.sleep(2.1)  # ZIP times have a 2-second resolution: a clock-stamped entry would differ now
    second = client.get(f"/opds/series/{RTL}/1.cbz")
    assert first.content == second.content
    assert first.headers["etag"] == second.headers["etag"] and not first.headers["etag"].startswith("W/")
    assert first.headers["accept-ranges"] == "bytes"


def test_an_interrupted_download_resumes_with_a_range(client):
    url = f"/opds/series/{RTL}/1.cbz"
    whole = client.get(url)
    size, etag = len(whole.content), whole.headers["etag"]
    middle = client.get(url, headers={"Range": "bytes=100-199"})
    assert middle.status_code == 206
    assert middle.headers["content-range"] == f"bytes 100-199/{size}"
    assert middle.content == whole.content[100:200]
    rest = client.get(url, headers={"Range": f"bytes={size - 1000}-", "If-Range": etag})
    assert rest.status_code == 206 and rest.content == whole.content[-1000:]
    tail = client.get(url, headers={"Range": "bytes=-10"})
    assert tail.status_code == 206 and tail.content == whole.content[-10:]
    # The archive changed since (another ETag): the whole new archive, not a piece of it.
    stale = client.get(url, headers={"Range": "bytes=100-199", "If-Range": '"another"'})
    assert stale.status_code == 200 and stale.content == whole.content
    past = client.get(url, headers={"Range": f"bytes={size}-"})
    assert past.status_code == 416 and past.headers["content-range"] == f"bytes */{size}"
    # Several ranges, or a malformed one, are answered with the whole archive (RFC 9110 allows it).
    assert client.get(url, headers={"Range": "bytes=0-1,5-9"}).status_code == 200
    assert client.get(url, headers={"Range": "pages=1"}).status_code == 200
