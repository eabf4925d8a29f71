"""EPUB volumes: spine order, image and wrapped-image pages, OPF metadata, hostile books refused.

Every EPUB is written here, as a ZIP with its container, package and pages.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from manga_app.core import routes
from manga_app.catalogue.archives import ArchiveError, open_chapter
from manga_app.catalogue.comicinfo import parse_comicinfo
from manga_app.catalogue.importer import import_source

from .builders import distinct_pages
from .checks import chapter_rows

CONTAINER = """<?xml version="1.0"?><container version="1.0"
 xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>
 <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
 </rootfiles></container>"""

METADATA = """<dc:title>ワンダー探偵 第2巻</dc:title>
<dc:creator>山田太郎</dc:creator><dc:creator>佐藤花子</dc:creator>
<dc:publisher>架空出版</dc:publisher>
<dc:description>&lt;p&gt;探偵が&lt;b&gt;帰ってきた&lt;/b&gt;。&lt;/p&gt;</dc:description>
<dc:subject>ミステリー</dc:subject><dc:subject>少年</dc:subject>
<dc:language>ja</dc:language>
<meta property="belongs-to-collection" id="c01">ワンダー探偵</meta>
<meta refines="#c01" property="collection-type">series</meta>
<meta refines="#c01" property="group-position">2</meta>"""


def _xhtml(body: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html>'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">'
        f"<head><title>p</title></head><body>{body}</body></html>"
    )


def _svg_page(image: str) -> str:
    return _xhtml(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'viewBox="0 0 40 60"><image width="40" height="60" xlink:href="{image}"/></svg>'
    )


def write_epub(
    path: Path,
    *,
    manifest: str,
    spine: str,
    files: dict[str, bytes | str],
    metadata: str = METADATA,
    direction: str = "rtl",
    prolog: str = "",
) -> Path:
    opf = (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:identifier id="id">urn:uuid:1</dc:identifier>{metadata}</metadata>'
        f'<manifest>{manifest}</manifest>'
        f'<spine page-progression-direction="{direction}">{spine}</spine></package>'
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml", CONTAINER)
        archive.writestr("OEBPS/content.opf", opf)
        for name, data in files.items():
            archive.writestr(f"OEBPS/{name}", data)
    return path


def _comic_epub(path: Path) -> tuple[Path, list[bytes]]:
    """A cover (not in the spine), an <img> page, an SVG page, a bare image page, a colophon."""
    images = distinct_pages(4, seed=5)
    manifest = (
        '<item id="cover" href="images/cover.png" media-type="image/png" properties="cover-image"/>'
        '<item id="p1" href="text/p1.xhtml" media-type="application/xhtml+xml"/>'
        '<item id="p2" href="text/p2.xhtml" media-type="application/xhtml+xml" properties="svg"/>'
        '<item id="p3" href="images/p%203.png" media-type="image/png"/>'
        '<item id="i1" href="images/p1.png" media-type="image/png"/>'
        '<item id="i2" href="images/p2.png" media-type="image/png"/>'
        '<item id="end" href="text/end.xhtml" media-type="application/xhtml+xml"/>'
    )
    spine = "".join(f'<itemref idref="{i}"/>' for i in ("p1", "p2", "p3", "end"))
    files = {
        "images/cover.png": images[0], "images/p1.png": images[1], "images/p2.png": images[2],
        "images/p 3.png": images[3],
        "text/p1.xhtml": _xhtml('<div><img src="../images/p1.png" alt=""/></div>'),
        "text/p2.xhtml": _svg_page("../images/p2.png"),
        "text/end.xhtml": _xhtml("<p>奥付&#160;架空出版</p>"),
    }  # fmt: skip
    return write_epub(path, manifest=manifest, spine=spine, files=files), images


def test_pages_come_in_spine_order_with_the_cover_first(tmp_path: Path):
    book, images = _comic_epub(tmp_path / "v2.epub")
    with open_chapter(book, "archive") as source:
        assert source.pages == [
            "OEBPS/images/cover.png", "OEBPS/images/p1.png", "OEBPS/images/p2.png",
            "OEBPS/images/p 3.png",
        ]  # fmt: skip
        assert [source.read(name) for name in source.pages] == images
        assert source.skipped == ["OEBPS/text/end.xhtml"]  # the colophon is text: noted


def test_the_opf_metadata_reaches_the_importer_as_comicinfo(tmp_path: Path):
    book, _ = _comic_epub(tmp_path / "v2.epub")
    with open_chapter(book, "archive") as source:
        info = parse_comicinfo(source.comicinfo)
        xml = source.comicinfo.decode()
    assert info.series == "ワンダー探偵" and info.direction == "rtl"
    assert info.writers == ["山田太郎", "佐藤花子"] and info.genres == ["ミステリー", "少年"]
    assert info.summary == "探偵が 帰ってきた 。" and info.language == "ja"
    assert "<Volume>2</Volume>" in xml and "<Publisher>架空出版</Publisher>" in xml


def test_an_epub_volume_is_imported_as_that_volume_of_its_series(tmp_path: Path, engine, media):
    # The OPF's group-position says volume 2: not chapter 2, whatever the file name says.
    _comic_epub(tmp_path / "src" / "ワンダー探偵 2.epub")
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.failed == [] and len(report.imported) == 1
    assert chapter_rows(engine) == [("ワンダー探偵", int((routes.VOLUME_KEY + 2) * 100), 4)]


def test_epub2_calibre_series_and_meta_cover(tmp_path: Path):
    images = distinct_pages(2, seed=9)
    book = write_epub(
        tmp_path / "b.epub",
        metadata='<dc:title>T</dc:title><meta name="calibre:series" content="シリーズ"/>'
        '<meta name="calibre:series_index" content="3"/><meta name="cover" content="c"/>',
        manifest='<item id="c" href="c.jpg" media-type="image/jpeg"/>'
        '<item id="a" href="a.png" media-type="image/png"/>',
        spine='<itemref idref="a"/>',
        files={"c.jpg": images[0], "a.png": images[1]},
        direction="ltr",
    )
    with open_chapter(book, "archive") as source:
        assert source.pages == ["OEBPS/c.jpg", "OEBPS/a.png"]
        info = parse_comicinfo(source.comicinfo)
        assert (info.series, info.direction) == ("シリーズ", "ltr")
        assert b"<Volume>3</Volume>" in source.comicinfo


def test_a_text_book_is_refused(tmp_path: Path):
    chapters = {f"c{i}.xhtml": _xhtml(f"<p>第{i}章 本文</p>") for i in range(5)}
    book = write_epub(
        tmp_path / "novel.epub",
        manifest="".join(
            f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>'
            for i in range(5)
        ),
        spine="".join(f'<itemref idref="c{i}"/>' for i in range(5)),
        files=chapters,
    )
    with pytest.raises(ArchiveError, match="a text book, not a comic"):
        with open_chapter(book, "archive"):
            pass


@pytest.mark.parametrize(
    ("prolog", "message"),
    [
        ('<!DOCTYPE package [<!ENTITY x SYSTEM "file:///etc/passwd">]>', "declares entities"),
        ('<!DOCTYPE package [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>', "declares entities"),
    ],
)
def test_an_opf_with_entities_is_refused(tmp_path: Path, prolog: str, message: str):
    book = write_epub(
        tmp_path / "x.epub",
        manifest='<item id="a" href="a.png" media-type="image/png"/>',
        spine='<itemref idref="a"/>',
        files={"a.png": distinct_pages(1)[0]},
        prolog=prolog,
    )
    with pytest.raises(ArchiveError, match=message):
        with open_chapter(book, "archive"):
            pass


@pytest.mark.parametrize(
    ("href", "page"),
    [("../../../etc/passwd.png", None), ("/etc/passwd.png", None),
     ("https://example.invalid/a.png", None), ("p.xhtml", '<img src="../../x.png"/>')],
)  # fmt: skip
def test_a_spine_entry_outside_the_archive_is_refused(tmp_path: Path, href: str, page):
    files = {"a.png": distinct_pages(1)[0]}
    media_type = "image/png"
    if page is not None:
        files["p.xhtml"] = _xhtml(page)
        media_type = "application/xhtml+xml"
    book = write_epub(
        tmp_path / "x.epub",
        manifest=f'<item id="a" href="{href}" media-type="{media_type}"/>',
        spine='<itemref idref="a"/>',
        files=files,
    )
    with pytest.raises(ArchiveError, match="outside the archive"):
        with open_chapter(book, "archive"):
            pass


def test_a_bomb_page_in_an_epub_is_refused_by_its_real_size(tmp_path: Path):
    from manga_app.catalogue.archives import Limits

    book = write_epub(
        tmp_path / "bomb.epub",
        manifest='<item id="a" href="a.png" media-type="image/png"/>',
        spine='<itemref idref="a"/>',
        files={"a.png": bytes(3 * 1024 * 1024)},  # deflates 1000:1
    )
    with pytest.raises(ArchiveError, match="possible zip bomb"):
        with open_chapter(book, "archive", Limits(max_entry_bytes=1024 * 1024)) as source:
            source.read(source.pages[0])
