"""An OPDS app's walk through the catalogue, on a real imported demo:
every feed reachable from /opds is valid OPDS 1.2 with its own media type,
and root -> genre -> series -> download gives the published pages."""

from __future__ import annotations

import io
import zipfile
from urllib.parse import unquote, urljoin

from manga_app.catalogue.comicinfo import parse_comicinfo
from tests.unit.opds.conftest import DEMO_SERIES, MESSY_AUTHOR, MESSY_TITLE
from tests.unit.opds.schema import ACQUIRE, ACQUISITION, NAVIGATION, NS, PSE_STREAM, valid_comicinfo, valid_feed

FEED_TYPES = (NAVIGATION, ACQUISITION)


def feed(client, href: str):
    response = client.get(href)
    assert response.status_code == 200, f"{href}: {response.status_code} {response.text}"
    media_type = response.headers["content-type"]
    return valid_feed(response.content, media_type), media_type


def link(element, rel: str):
    found = element.find(f"a:link[@rel='{rel}']", NS)
    return None if found is None else found.get("href")


def entry_titled(document, title: str):
    for entry in document.findall("a:entry", NS):
        if entry.findtext("a:title", namespaces=NS) == title:
            return entry
    raise AssertionError(f"no entry {title!r} in {[e.findtext('a:title', namespaces=NS) for e in document.findall('a:entry', NS)]}")


def crawl(client) -> tuple[dict[str, object], list]:
    """Every feed reachable from /opds (each checked against the schema and the
    type its link announced), and every entry of the acquisition feeds."""
    seen, queue, units = {}, [("/opds", NAVIGATION)], []
    while queue:
        href, announced = queue.pop()
        if href in seen:
            continue
        document, media_type = feed(client, href)
        seen[href] = document
        assert media_type == announced, f"{href} is {media_type}, linked as {announced}"
        if media_type == ACQUISITION:
            units += document.findall("a:entry", NS)
        for element in document.iter(f"{{{NS['a']}}}link"):
            if element.get("type") in FEED_TYPES and element.get("rel") != "start":
                queue.append((urljoin(href, element.get("href")), element.get("type")))
    return seen, units


def test_every_feed_reachable_from_the_root_is_valid_opds_of_the_type_its_links_announce(client):
    feeds, _ = crawl(client)
    # root, new, popular, latest, genres (+ each), authors (+ each), kana (+ rows), every series
    assert len(feeds) >= 20
    # The messy import: its author (a space and a slash in the name) has a feed of its own.
    author = next(href for href in feeds if href.startswith("/opds/authors/") and "%2F" in href)
    assert [e.findtext("a:title", namespaces=NS) for e in feeds[author].findall("a:entry", NS)] == [MESSY_TITLE]
    assert unquote(author.removeprefix("/opds/authors/")) == MESSY_AUTHOR


def test_every_download_holds_comicinfo_v2_and_every_page_stream_serves_the_type_it_declares(client):
    _, units = crawl(client)
    downloads = {link(unit, ACQUIRE) for unit in units}
    assert len(downloads) >= DEMO_SERIES
    for href in downloads:
        response = client.get(href)
        assert response.status_code == 200, href
        valid_comicinfo(zipfile.ZipFile(io.BytesIO(response.content)).read("ComicInfo.xml"))
    declared = set()
    for unit in units:
        stream = unit.find(f"a:link[@rel='{PSE_STREAM}']", NS)
        declared.add(stream.get("type"))
        assert stream.get("type") in ("image/jpeg", "image/gif", "image/png"), "OPDS-PSE allows JPEG, GIF and PNG only"
        for width in ("120", "2000"):
            href = stream.get("href").replace("{pageNumber}", "0").replace("{maxWidth}", width)
            response = client.get(href)
            assert response.status_code == 200, href
            assert response.headers["content-type"] == stream.get("type"), (href, response.headers["content-type"])


def test_a_reader_goes_from_the_root_to_a_genre_to_a_series_and_downloads_a_chapter(client, site):
    root, _ = feed(client, "/opds")
    genres, _ = feed(client, link(entry_titled(root, "ジャンル"), "subsection"))
    first_genre = genres.find("a:entry", NS)
    series_list, _ = feed(client, link(first_genre, "subsection"))
    series_entry = series_list.find("a:entry", NS)
    assert first_genre.findtext("a:title", namespaces=NS) in [
        category.get("term") for category in series_entry.findall("a:category", NS)
    ]
    assert link(series_entry, "http://opds-spec.org/image/thumbnail").startswith("/media/")
    units, media_type = feed(client, link(series_entry, "subsection"))
    assert media_type == ACQUISITION
    unit = units.find("a:entry", NS)
    download = unit.find(f"a:link[@rel='{ACQUIRE}']", NS)
    assert download.get("type") == "application/vnd.comicbook+zip"
    response = client.get(download.get("href"))
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/vnd.comicbook+zip"
    assert int(response.headers["content-length"]) == len(response.content)
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.testzip() is None
    names = archive.namelist()
    assert names[0] == "ComicInfo.xml"
    stream = unit.find("a:link[@rel='http://vaemendis.net/opds-pse/stream']", NS)
    count = int(stream.get(f"{{{NS['pse']}}}count"))
    assert len(names) == count + 1
    assert all(info.compress_type == zipfile.ZIP_STORED for info in archive.infolist())
    info = parse_comicinfo(archive.read("ComicInfo.xml"))
    assert info.series == series_entry.findtext("a:title", namespaces=NS)
