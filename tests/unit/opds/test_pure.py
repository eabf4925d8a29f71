"""The pure parts of the catalogue: 五十音 rows, URLs under a key, paging
links, ComicInfo's reading direction, and feeds built from plain data
(including text that needs escaping) passing the OPDS schema."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from lxml import etree

from manga_app.read_models.titles import ChapterView, SeriesView
from manga_app.core import gojuon
from manga_app.opds import comicinfo, entries, feeds, urls
from tests.unit.opds.schema import ACQUISITION, NAVIGATION, NS, valid_feed

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("title", "readings", "row"),
    [
        ("進撃の巨人", ("しんげきのきょじん",), "sa"),
        ("ガンダム", (), "ka"),  # katakana, voiced: filed under か
        ("ぱぴぷ", (), "ha"),  # semi-voiced: は
        ("ぁいう", (), "a"),  # small kana: あ
        ("ヴァンパイア", (), "a"),
        ("ONE PIECE", ("わんぴーす",), "wa"),  # a Latin title files by its reading
        ("ONE PIECE", (), "latin"),
        ("１２３", (), "latin"),  # full-width digits
        ("漢字", (), "other"),
        ("", (), "other"),
    ],
)
def test_a_title_is_filed_under_the_row_of_its_reading(title, readings, row):
    assert gojuon.row_of(gojuon.sort_key(title, readings)) == row


def test_keyed_urls_keep_the_key_and_escape_names():
    keyed = urls.Urls(urls.keyed_root("abc_DEF-123"))
    assert keyed.following() == "/opds/k/abc_DEF-123/following"
    assert keyed.genre("SF/ファンタジー", 2) == "/opds/k/abc_DEF-123/genres/SF%2F%E3%83%95%E3%82%A1%E3%83%B3%E3%82%BF%E3%82%B8%E3%83%BC?page=2"
    assert urls.Urls().search("進撃 巨人") == "/opds/search?q=%E9%80%B2%E6%92%83+%E5%B7%A8%E4%BA%BA"
    assert urls.Urls().pages("s", "1000003") == "/opds/series/s/1000003/pages/{pageNumber}?maxWidth={maxWidth}"


def test_paging_links_name_first_previous_next_and_last():
    page = feeds.Page(number=2, count=3, url=lambda n: f"/x?page={n}", total=7, per_page=3)
    assert [(link.rel, link.href) for link in feeds.paging_links(page, NAVIGATION)] == [
        ("first", "/x?page=1"), ("previous", "/x?page=1"), ("next", "/x?page=3"), ("last", "/x?page=3"),
    ]


def series(direction: str = "rtl") -> SeriesView:
    return SeriesView(
        id=1, slug="s", title="作品 <&> \"題\"", alt_titles=(), authors=("作者A",), artists=("作画B",),
        summary="あらすじ & <b>太字</b>", status="ongoing", direction=direction, cover="/media/c-cover320.webp",
        cover_small="/media/c-cover160.webp", genres=("日常",), tags=("猫",), views=1, created_at=T0,
        updated_at=T0, url="/manga/s",
    )


def volume() -> ChapterView:
    return ChapterView(number="1000003", title="", slug="vol", published_at=T0, page_count=12, views=0,
                       url="/s-ch-3-vol", kind="volume", label="第3巻")


@pytest.mark.parametrize(("direction", "manga"), [("rtl", "YesAndRightToLeft"), ("ltr", "Yes"), ("vertical", "Yes")])
def test_comicinfo_says_right_to_left_only_for_right_to_left_series(direction, manga):
    info = ET.fromstring(comicinfo.comicinfo_xml(series(direction), volume(), pages=12))
    assert info.findtext("Manga") == manga
    assert (info.findtext("Series"), info.findtext("Number"), info.findtext("Volume")) == (series().title, "3", "3")
    assert info.findtext("Writer") == "作者A" and info.findtext("Penciller") == "作画B"
    assert info.findtext("Summary") == series().summary and info.findtext("PageCount") == "12"


def test_feeds_built_from_text_that_needs_escaping_are_valid_opds():
    u = urls.Urls()
    acquisition = feeds.Feed(
        id="urn:x", title=series().title, kind=feeds.ACQUISITION, updated=T0, self_href=u.series("s"),
        start_href=u.start(), search_href=u.search_description(),
        entries=[entries.unit_entry(series(), volume(), u, pages=12, reading=entries.Reading(page=4, at=T0))],
    )
    valid_feed(feeds.render_feed(acquisition, site_name="漫画ひろば", site_uri="https://manga.example"), ACQUISITION)
    navigation = feeds.Feed(
        id="urn:y", title="検索 <&>", kind=feeds.NAVIGATION, updated=T0, self_href=u.search("<&>"),
        start_href=u.start(), search_href=u.search_description(),
        entries=[entries.navigation_entry("k", "ジャンル & 作者", u.genres(), updated=T0, content="<説明>")],
    )
    valid_feed(feeds.render_feed(navigation, site_name="漫画ひろば", site_uri="https://manga.example"), NAVIGATION)


def test_volumes_come_before_chapters_in_reading_order():
    chapter = ChapterView(number="1", title="", slug="", published_at=T0, page_count=1, views=0, url="/s-ch-1")
    assert entries.in_reading_order([chapter, volume()]) == [volume(), chapter]


def test_text_that_xml_cannot_hold_is_left_out_of_feeds_and_comicinfo():
    # Defence in depth: the importer cleans names, but a feed must stay readable whatever reaches it.
    messy = replace(series(), title="作品\x01\x1b[31m\ufffe", authors=("作者\x7f\uffff",), genres=("日常\x08",),
                    summary="あらすじ\x00\n二行目")
    u = urls.Urls()
    feed = feeds.Feed(
        id="urn:x", title=messy.title, kind=feeds.ACQUISITION, updated=T0, self_href=u.series("s"),
        start_href=u.start(), search_href=u.search_description(),
        entries=[entries.unit_entry(messy, volume(), u, pages=12)],
    )
    document = valid_feed(feeds.render_feed(feed, site_name="漫画ひろば", site_uri="https://manga.example"), ACQUISITION)
    assert document.findtext("a:title", namespaces=NS) == "作品[31m"
    assert [c.get("term") for c in document.iter(f"{{{NS['a']}}}category")] == ["日常"]
    info = etree.fromstring(comicinfo.comicinfo_xml(messy, volume(), pages=12))
    assert (info.findtext("Series"), info.findtext("Writer"), info.findtext("Summary")) == ("作品[31m", "作者\x7f", "あらすじ\n二行目")
