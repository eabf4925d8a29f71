"""Readings the file gives (EPUB file-as, ComicInfo SeriesSort) win over generated ones:
imported into a real database, published, and searched as visitors search."""

from __future__ import annotations

import json
from pathlib import Path

from sqlmodel import Session, select

from manga_app.catalogue.comicinfo import parse_comicinfo
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Series
from manga_app.catalogue.publisher import publish_catalogue
from manga_app.catalogue.readings import readings_for
from manga_app.catalogue.series_readings import refresh_search
from manga_app.read_models.compact import CatalogueBuilder
from manga_app.search.index import SearchIndex
from manga_app.search.normalize import query_terms
from manga_app.search.query import Query

from .builders import distinct_pages
from .test_epub import write_epub

# EPUB 3: file-as refines the title and the creator (a comma between family and given name).
EPUB3 = """<dc:title id="t">聖闘士星矢</dc:title>
<meta refines="#t" property="file-as">セイントセイヤ</meta>
<dc:creator id="c1">永井豪</dc:creator>
<meta refines="#c1" property="file-as">ナガイ, ゴウ</meta>
<dc:language>ja</dc:language>"""
# EPUB 2: opf:file-as attributes (half-width katakana, as some stores write it).
EPUB2 = """<dc:title xmlns:opf="http://www.idpf.org/2007/opf" opf:file-as="ﾄｳｷｮｳｸﾞｰﾙ">東京喰種</dc:title>
<dc:creator xmlns:opf="http://www.idpf.org/2007/opf" opf:role="aut" opf:file-as="イシダ スイ">石田スイ</dc:creator>
<dc:language>ja</dc:language>"""


def _volume(path: Path, metadata: str) -> Path:
    images = distinct_pages(2, seed=len(metadata))
    manifest = (
        '<item id="i1" href="p1.png" media-type="image/png"/>'
        '<item id="i2" href="p2.png" media-type="image/png"/>'
    )
    spine = '<itemref idref="i1"/><itemref idref="i2"/>'
    return write_epub(
        path, manifest=manifest, spine=spine, files={"p1.png": images[0], "p2.png": images[1]},
        metadata=metadata,
    )  # fmt: skip


def _import_both(tmp_path: Path, engine, media) -> dict[str, Series]:
    _volume(tmp_path / "src" / "聖闘士星矢" / "聖闘士星矢 第1巻.epub", EPUB3)
    _volume(tmp_path / "src" / "東京喰種" / "東京喰種 第1巻.epub", EPUB2)
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.failed == [] and len(report.imported) == 2
    with Session(engine) as session:
        return {series.title: series for series in session.exec(select(Series))}


def _search(tmp_path: Path, engine, content_key: str, typed: str) -> list[str]:
    out = tmp_path / "published"
    with Session(engine) as session:
        publish_catalogue(session=session, out_dir=out, content_key=content_key, media_base_url="/media/")
    builder = CatalogueBuilder()
    builder.add_page(json.loads((out / "mangas_1.json").read_text(encoding="utf-8"))["list"])
    index = SearchIndex(builder.build())
    return [item.title for item in index.search(Query(q=typed, per_page=50), query_terms(typed)).items]


def test_the_file_as_of_an_epub_title_and_creator_is_the_stored_sort_reading(tmp_path, engine, media):
    series = _import_both(tmp_path, engine, media)
    seiya, ghoul = series["聖闘士星矢"], series["東京喰種"]
    # the title's reading comes first (the sort key) and is the file's, in hiragana
    assert seiya.readings[0]["hiragana"] == "せいんとせいや" and seiya.readings[0]["source"] == "file"
    assert ghoul.readings[0]["hiragana"] == "とうきょうぐーる" and ghoul.readings[0]["source"] == "file"
    names = {r["text"]: r["hiragana"] for r in (*seiya.readings, *ghoul.readings) if r.get("of") == "name"}
    assert names == {"永井豪": "ながいごう", "石田スイ": "いしだすい"}


def test_searching_the_files_reading_finds_the_title(tmp_path, engine, media, content_key):
    _import_both(tmp_path, engine, media)
    for typed in ("せいんとせいや", "セイントセイヤ", "seinto seiya", "とうきょうぐーる", "tokyo guru"):
        assert _search(tmp_path, engine, content_key, typed)[:1] in (["聖闘士星矢"], ["東京喰種"]), typed
    assert _search(tmp_path, engine, content_key, "せいんと") == ["聖闘士星矢"]
    # the generated reading is still a plausible one: it finds the title too
    generated = readings_for("聖闘士星矢").hiragana
    assert generated != "せいんとせいや" and "聖闘士星矢" in _search(tmp_path, engine, content_key, generated)


def test_a_file_reading_reaches_a_series_imported_before_without_one(tmp_path, engine, media):
    _volume(tmp_path / "src" / "聖闘士星矢" / "聖闘士星矢 第1巻.epub", "<dc:language>ja</dc:language>")
    import_source(tmp_path / "src", engine=engine, media=media)
    with Session(engine) as session:
        assert session.exec(select(Series)).one().readings[0]["hiragana"] != "せいんとせいや"
    _volume(tmp_path / "src" / "聖闘士星矢" / "聖闘士星矢 第2巻.epub", EPUB3)
    import_source(tmp_path / "src", engine=engine, media=media)
    with Session(engine) as session:
        assert session.exec(select(Series)).one().readings[0]["hiragana"] == "せいんとせいや"


def test_only_kana_is_taken_as_a_reading_from_comicinfo():
    def readings(sort: str) -> tuple:
        xml = f"<ComicInfo><Series>聖闘士星矢</Series><SeriesSort>{sort}</SeriesSort></ComicInfo>"
        return parse_comicinfo(xml.encode()).readings

    assert readings("セイントセイヤ") == (("聖闘士星矢", "せいんとせいや"),)  # Kavita's SeriesSort
    assert readings("Saint Seiya") == ()  # a Latin sort title is not a reading
    assert readings("聖闘士星矢 01") == ()  # nor is the title with a number


def test_an_operators_reading_is_not_overwritten_by_the_files():
    series = Series(slug="s", title="聖闘士星矢", title_key="聖闘士星矢")
    refresh_search(series)
    series.readings = [{**series.readings[0], "hiragana": "せいんとせいや", "source": "operator"}]
    refresh_search(series, (("聖闘士星矢", "せいとしせいや"),))  # a file with another reading
    assert series.readings[0]["hiragana"] == "せいんとせいや" and series.readings[0]["source"] == "operator"
