"""Heads of title, chapter and genre pages, built from read models."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from manga_app.heads import build, seo
from manga_app.core import routes
from manga_app.read_models.titles import ChapterContext, ChapterView, SeriesView

ORIGIN = "https://manga.example"
SITE = "漫画ひろば"
WHEN = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _chapter(number: str, title: str = "") -> ChapterView:
    return ChapterView(number=number, title=title, slug="", published_at=WHEN, page_count=8, views=3, url=routes.chapter_url("hoshi", number))


def _series(**changes) -> SeriesView:
    values = dict(
        id=1, slug="hoshi", title="星降る街の配達人", alt_titles=("Hoshifuru",), authors=("青井ミナト",), artists=(),
        summary="夜の街で手紙を届ける少女の物語。", status="ongoing", direction="rtl", cover="/media/ab/x-cover320.webp",
        cover_small="", genres=("ファンタジー", "日常"), tags=("配達",), views=10, created_at=WHEN, updated_at=WHEN, url=routes.manga_url("hoshi"),
    )
    values.update(changes)
    return SeriesView(**values)


def test_a_title_page_is_a_comic_series_with_its_chapters_newest_first() -> None:
    chapters = (_chapter("1", "はじまり"), _chapter("2"), _chapter("2.5"))
    head = build.title_head(_series(), chapters, site_name=SITE, origin=ORIGIN)
    assert head.title == "星降る街の配達人 - 無料で漫画を読む | 漫画ひろば"
    assert head.path == "/manga/hoshi"
    assert head.image == "/media/ab/x-cover320.webp"
    series_ld, crumbs_ld = head.json_ld
    assert series_ld["@type"] == "ComicSeries"
    assert [part["issueNumber"] for part in series_ld["hasPart"]] == ["2.5", "2", "1"]
    assert series_ld["hasPart"][2]["name"] == "はじまり"
    assert series_ld["hasPart"][1]["name"] == "第2話"
    assert series_ld["author"] == [{"@type": "Person", "name": "青井ミナト"}]
    assert series_ld["alternateName"] == ["Hoshifuru"]
    assert [item["name"] for item in crumbs_ld["itemListElement"]] == [SITE, "ファンタジー", "星降る街の配達人"]
    assert "連載中" in head.description and "全3話" in head.description


def test_descriptions_are_clipped_for_search_results() -> None:
    head = build.title_head(_series(summary="長い" * 200), (_chapter("1"),), site_name=SITE, origin=ORIGIN)
    assert len(head.description) <= 120 and head.description.endswith("…")


def test_a_series_without_cover_or_genres_still_has_a_share_image_and_breadcrumbs() -> None:
    head = build.title_head(_series(cover="", genres=(), authors=()), (_chapter("1"),), site_name=SITE, origin=ORIGIN)
    assert head.image == seo.DEFAULT_IMAGE
    assert "author" not in head.json_ld[0]
    assert [item["name"] for item in head.json_ld[1]["itemListElement"]] == [SITE, "星降る街の配達人"]


def test_a_chapter_head_names_series_and_chapter_and_links_its_series() -> None:
    chapters = (_chapter("1"), _chapter("2", "再会"))
    context = ChapterContext(series=_series(), chapter=chapters[1], previous=chapters[0], next=None, chapters=chapters)
    head = build.reader_head(context, "/hoshi-ch-2", site_name=SITE, origin=ORIGIN)
    assert head.title == "星降る街の配達人 第2話 再会 | 漫画ひろば"
    assert head.heading == "星降る街の配達人 第2話 再会"  # the reader's bar: no site name
    assert head.path == "/hoshi-ch-2"
    issue = head.json_ld[0]
    assert issue["@type"] == "ComicIssue" and issue["isPartOf"]["url"] == ORIGIN + "/manga/hoshi"
    assert json.loads(seo.json_ld_text(head.json_ld))["@graph"][0]["issueNumber"] == "2"


def test_a_volume_is_named_as_a_volume_not_by_its_unit_key() -> None:
    volume = _chapter(str(routes.VOLUME_KEY + 3))
    context = ChapterContext(series=_series(), chapter=volume, previous=None, next=None, chapters=(volume,))
    head = build.reader_head(context, "/hoshi-ch-3-vol", site_name=SITE, origin=ORIGIN)
    assert head.title == "星降る街の配達人 第3巻 | 漫画ひろば"
    assert json.loads(seo.json_ld_text(head.json_ld))["@graph"][0]["issueNumber"] == "3"


def test_a_genre_head_counts_its_titles_and_encodes_its_url() -> None:
    head = build.genre_head("恋愛", 12, site_name=SITE, origin=ORIGIN)
    assert head.title == "恋愛の漫画一覧 | 漫画ひろば"
    assert head.path == routes.genre_url("恋愛") and "%E6%81%8B" in head.path
    assert "12作品" in head.description
