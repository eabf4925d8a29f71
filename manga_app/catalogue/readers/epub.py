"""Fixed-layout EPUB 2/3 volumes: the pages in spine order, the OPF's metadata as ComicInfo.

Each spine item is an image, or an XHTML/SVG page wrapping images (their
images are the pages); spine items that hold only text (a colophon) are left
out and noted. A book whose spine is mostly text is a text book, not a comic,
and is refused. The OPF and pages are parsed with defusedxml (no entities,
no external references); every path is resolved inside the archive, and one
pointing outside it refuses the book.

The metadata (series and volume from belongs-to-collection + group-position
or calibre:series, dc:creator/publisher/description/subject/language, the
reading direction from page-progression-direction) is handed to the importer
as ComicInfo.xml bytes, like any CBZ's. Each file-as of the title, a creator
or the collection (EPUB 3 `<meta refines="#id" property="file-as">`, EPUB 2
`opf:file-as`) goes along as `<Reading of="text">`. The cover-image comes first when the
spine does not show it.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit
from xml.etree.ElementTree import Element, ParseError, SubElement, tostring

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from manga_app.catalogue.readers.base import ArchiveError, ChapterSource, Limits, check_name
from manga_app.catalogue.readers.zipped import read_entry
from manga_app.catalogue.scanner import entry_kind

__all__ = ["open_epub"]

_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_PAGE_TYPES = ("application/xhtml+xml", "image/svg+xml", "text/html")
_IMAGE_SOURCE = re.compile(rb"""<(?:\w+:)?(?:img|image)\b[^>]*?\b(?:src|xlink:href|href)\s*=\s*["']([^"']+)""", re.I)  # fmt: skip
_TAGS = re.compile(r"<[^>]+>")
_OPF_FILE_AS = "{http://www.idpf.org/2007/opf}file-as"


@contextmanager
def open_epub(path: Path, limits: Limits) -> Iterator[ChapterSource]:
    try:
        with zipfile.ZipFile(path) as archive:
            yield _Book(archive, limits).source()
    except zipfile.BadZipFile as exc:
        raise ArchiveError(f"corrupt EPUB: {exc}") from None
    except (EOFError, NotImplementedError, RuntimeError) as exc:
        raise ArchiveError(f"unreadable EPUB: {exc}") from None


class _Book:
    def __init__(self, archive: zipfile.ZipFile, limits: Limits) -> None:
        self.archive, self.limits, self.budget = archive, limits, [0]
        infos = archive.infolist()
        if len(infos) > limits.max_entries:
            raise ArchiveError(f"too many entries ({len(infos)} > {limits.max_entries})")
        for info in infos:
            check_name(info.filename)
        self.entries = {info.filename: info for info in infos if not info.is_dir()}

    def source(self) -> ChapterSource:
        container = self._xml("META-INF/container.xml")
        rootfile = next((e for e in container.iter() if _local(e.tag) == "rootfile"), None)
        if rootfile is None or not rootfile.get("full-path"):
            raise ArchiveError("invalid EPUB: META-INF/container.xml names no package (OPF)")
        opf_path = self._inside("", rootfile.get("full-path", ""), "the package")
        opf = self._xml(opf_path)
        base = posixpath.dirname(opf_path)
        manifest = {}
        for item in _children(opf, "manifest", "item"):
            href = self._inside(base, item.get("href", ""), f"manifest item {item.get('id')!r}")
            manifest[item.get("id")] = (href, item.get("media-type", ""), item.get("properties", ""))
        spine = next((e for e in opf if _local(e.tag) == "spine"), None)
        if spine is None:
            raise ArchiveError("invalid EPUB: the package has no spine")
        pages, text_pages = self._pages(spine, manifest)
        if not pages or len(text_pages) > len(pages):
            raise ArchiveError(
                "a text book, not a comic: most of its pages are text, not images"
            )
        cover = _cover(opf, manifest)
        if cover and cover not in pages and entry_kind(cover) == "page":
            pages.insert(0, cover)
        metadata = _comicinfo(opf, spine.get("page-progression-direction"))

        def read(name: str) -> bytes:
            return read_entry(
                self.archive, self.entries[name], self.limits.max_entry_bytes, self.limits,
                self.budget,
            )  # fmt: skip

        return ChapterSource(pages=pages, comicinfo=metadata, _read=read, skipped=text_pages)

    def _pages(self, spine: Element, manifest: dict) -> tuple[list[str], list[str]]:
        pages: list[str] = []
        text_pages: list[str] = []
        for itemref in spine:
            if _local(itemref.tag) != "itemref":
                continue
            idref = itemref.get("idref")
            if idref not in manifest:
                raise ArchiveError(f"invalid EPUB: spine entry {idref!r} is not in the manifest")
            href, media_type, _ = manifest[idref]
            if href not in self.entries:
                raise ArchiveError(f"spine entry {href!r} is missing from the archive")
            if media_type.startswith("image/") and media_type != "image/svg+xml":
                found = [href]
            elif media_type in _PAGE_TYPES:
                found = self._images_in(href)
            else:
                found = []
            for image in found:
                if entry_kind(image) == "unsupported":
                    raise ArchiveError(f"page image {image!r} is in a format we cannot import")
                if image not in pages:
                    pages.append(image)
            if not found:
                text_pages.append(href)
        return pages, text_pages

    def _images_in(self, href: str) -> list[str]:
        """The images an XHTML/SVG page shows, in order (each checked to be in the archive)."""
        data = self._read(href)
        base = posixpath.dirname(href)
        sources = [unquote(m.group(1).decode("utf-8", "replace")) for m in _IMAGE_SOURCE.finditer(data)]
        images = []
        for source in sources:
            if source.startswith("data:"):
                continue
            image = self._inside(base, source, f"an image of {href!r}")
            if image not in self.entries:
                raise ArchiveError(f"page {href!r} shows {image!r}, which is not in the archive")
            images.append(image)
        return images

    def _inside(self, base: str, href: str, what: str) -> str:
        """`href` relative to `base`, as an archive path; ArchiveError when it leaves the archive."""
        parts = urlsplit(href)
        if parts.scheme or parts.netloc or href.startswith("/"):
            raise ArchiveError(f"{what} points outside the archive ({href!r}); EPUB refused")
        joined = posixpath.normpath(posixpath.join(base, unquote(parts.path)))
        if joined.startswith("../") or joined == "..":
            raise ArchiveError(f"{what} points outside the archive ({href!r}); EPUB refused")
        return joined

    def _read(self, name: str) -> bytes:
        if name not in self.entries:
            raise ArchiveError(f"invalid EPUB: {name} is missing")
        cap = self.limits.max_metadata_bytes
        return read_entry(self.archive, self.entries[name], cap, self.limits, self.budget)

    def _xml(self, name: str) -> Element:
        try:
            return fromstring(self._read(name))
        except DefusedXmlException as exc:
            raise ArchiveError(
                f"{name} declares entities or external references ({type(exc).__name__}); "
                "EPUB refused"
            ) from None
        except ParseError as exc:
            raise ArchiveError(f"invalid EPUB: {name} is not well-formed XML ({exc})") from None


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(root: Element, parent: str, child: str) -> list[Element]:
    holder = next((e for e in root if _local(e.tag) == parent), None)
    return [] if holder is None else [e for e in holder if _local(e.tag) == child]


def _cover(opf: Element, manifest: dict) -> str | None:
    for href, media_type, properties in manifest.values():
        if "cover-image" in properties.split() and media_type.startswith("image/"):
            return href
    for meta in _children(opf, "metadata", "meta"):  # EPUB 2: <meta name="cover" content="id">
        if meta.get("name") == "cover" and meta.get("content") in manifest:
            return manifest[meta.get("content")][0]
    return None


def _comicinfo(opf: Element, direction: str | None) -> bytes:
    """The OPF's metadata as ComicInfo.xml (what the importer already reads)."""
    entries = next((e for e in opf if _local(e.tag) == "metadata"), Element("metadata"))
    dc: dict[str, list[str]] = {}
    for element in entries:
        text = " ".join((element.text or "").split())
        if text and element.tag.startswith("{http://purl.org/dc/elements/1.1/}"):
            dc.setdefault(_local(element.tag), []).append(text)
    series, volume = _collection(entries)
    info = Element("ComicInfo")
    summary = " ".join(_TAGS.sub(" ", dc.get("description", [""])[0]).split())
    fields = {
        "Title": (dc.get("title") or [None])[0],
        "Series": series,
        "Volume": volume,
        "Summary": summary or None,
        "Writer": ", ".join(dc.get("creator", [])) or None,
        "Publisher": (dc.get("publisher") or [None])[0],
        "Genre": ", ".join(dc.get("subject", [])) or None,
        "LanguageISO": (dc.get("language") or [None])[0],
        "Manga": {"rtl": "YesAndRightToLeft", "ltr": "No"}.get(direction or ""),
    }
    for name, value in fields.items():
        if value:
            SubElement(info, name).text = value
    for text, reading in _file_as(entries):
        SubElement(info, "Reading", of=text).text = reading
    return tostring(info, encoding="utf-8", xml_declaration=True)


def _file_as(entries: Element) -> list[tuple[str, str]]:
    """(text, file-as) of each dc:title, dc:creator and collection that has one."""
    refined = {
        (meta.get("refines") or "")[1:]: (meta.text or "").strip()
        for meta in entries
        if _local(meta.tag) == "meta" and meta.get("property") == "file-as" and meta.get("refines")
    }
    found = []
    for element in entries:
        text = " ".join((element.text or "").split())
        reading = element.get(_OPF_FILE_AS) or refined.get(element.get("id") or "")
        named = _local(element.tag) in ("title", "creator") or element.get("property") == "belongs-to-collection"
        if text and reading and named:
            found.append((text, reading))
    return found


def _collection(entries: Element) -> tuple[str | None, str | None]:
    """(series, volume) from EPUB 3 belongs-to-collection + group-position, or calibre's."""
    metas = [e for e in entries if _local(e.tag) == "meta"]
    for meta in metas:
        if meta.get("property") == "belongs-to-collection" and (meta.text or "").strip():
            ref = f"#{meta.get('id')}" if meta.get("id") else None
            position = next(
                (m.text.strip() for m in metas
                 if ref and m.get("refines") == ref and m.get("property") == "group-position"
                 and m.text),
                None,
            )  # fmt: skip
            return meta.text.strip(), position
    named = {m.get("name"): m.get("content") for m in metas if m.get("name")}
    return named.get("calibre:series"), named.get("calibre:series_index")
