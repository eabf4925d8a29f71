"""An OPDS app's walk through the catalogue, on a real imported demo:
every feed reachable from /opds is valid OPDS 1.2 with its own media type,
and root -> genre -> series -> download gives the published pages."""

from __future__ import annotations

import io
import zipfile
from urllib.parse import urljoin

from manga_app.catalogue.comicinfo import parse_comicinfo
from tests.unit.opds.schema import ACQUIRE, ACQUISITION, NAVIGATION, NS, valid_feed

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


def test_every_feed_reachable_from_the_root_is_valid_opds_of_the_type_its_links_announce(client):
    seen, queue, checked = set(), [("/opds", NAVIGATION)], 0
    while queue:
        href, announced = queue.pop()
        if href in seen:
            continue
        seen.add(href)
        document, media_type = feed(client, href)
        assert media_type == announced, f"{href} is {media_type}, linked as {announced}"
        checked += 1
        for element in document.iter(f"{{{NS['a']}}}link"):
            if element.get("type") in FEED_TYPES and element.get("rel") != "start":
                queue.append((urljoin(href, element.get("href")), element.get("type")))
    # root, new, popular, latest, genres (+ each), authors (+ each), kana (+ rows), every series
    assert checked >= 20


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
