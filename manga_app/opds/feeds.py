"""OPDS 1.2 documents as Atom XML: feeds, entries, links, and the
OpenSearch description. Plain data in, UTF-8 bytes out. Pure module.

Links are root-relative: Atom resolves them against the feed's own URL, so
the catalogue works on whatever host and port an app reached it through."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from manga_app.core.text import xml_safe
from manga_app.opds import urls

ATOM_NS = "http://www.w3.org/2005/Atom"
OPDS_NS = "http://opds-spec.org/2010/catalog"
DC_NS = "http://purl.org/dc/terms/"
OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
PSE_NS = urls.PSE_NAMESPACE
for _prefix, _uri in (("", ATOM_NS), ("opds", OPDS_NS), ("dc", DC_NS), ("opensearch", OPENSEARCH_NS), ("pse", PSE_NS)):
    ET.register_namespace(_prefix, _uri)

NAVIGATION, ACQUISITION = "navigation", "acquisition"
_FEED_TYPES = {NAVIGATION: urls.NAVIGATION, ACQUISITION: urls.ACQUISITION}


@dataclass(frozen=True)
class Link:
    rel: str
    href: str
    type: str
    title: str = ""
    # Namespaced attributes, as ElementTree names: {"{pse ns}count": "12"}.
    extra: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    updated: datetime
    links: tuple[Link, ...]
    authors: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    summary: str = ""
    content: str = ""
    language: str = ""
    issued: str = ""


@dataclass(frozen=True)
class Page:
    """Where a paged feed is: its number, how many there are, and its URL builder."""

    number: int
    count: int
    url: Callable[[int], str]
    total: int
    per_page: int


@dataclass(frozen=True)
class Feed:
    id: str
    title: str
    kind: str  # NAVIGATION or ACQUISITION
    updated: datetime
    self_href: str
    start_href: str
    search_href: str
    entries: Sequence[Entry] = ()
    up_href: str = ""
    up_kind: str = NAVIGATION
    page: Page | None = None
    icon: str = ""
    extra_links: tuple[Link, ...] = field(default_factory=tuple)

    @property
    def media_type(self) -> str:
        return _FEED_TYPES[self.kind]


def page_count(total: int, per_page: int) -> int:
    """At least 1: an empty list still has its (empty) first page."""
    return max(1, math.ceil(max(0, total) / per_page))


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _q(namespace: str, name: str) -> str:
    return f"{{{namespace}}}{name}"


def _element(parent: ET.Element, tag: str, attrs: dict[str, str]) -> ET.Element:
    """A child whose attribute values hold only what XML allows (core/text.py)."""
    return ET.SubElement(parent, tag, {name: xml_safe(value) for name, value in attrs.items()})


def _text(parent: ET.Element, name: str, value: str, namespace: str = ATOM_NS, **attrs: str) -> ET.Element:
    element = _element(parent, _q(namespace, name), attrs)
    element.text = xml_safe(value)
    return element


def _link(parent: ET.Element, link: Link) -> None:
    attrs = {"rel": link.rel, "href": link.href, "type": link.type}
    if link.title:
        attrs["title"] = link.title
    attrs.update(dict(link.extra))
    _element(parent, _q(ATOM_NS, "link"), attrs)


def _author(parent: ET.Element, name: str, uri: str = "") -> None:
    author = ET.SubElement(parent, _q(ATOM_NS, "author"))
    _text(author, "name", name)
    if uri:
        _text(author, "uri", uri)


def paging_links(page: Page, media_type: str) -> list[Link]:
    links = [Link("first", page.url(1), media_type, "最初のページ")]
    if page.number > 1:
        links.append(Link("previous", page.url(page.number - 1), media_type, "前のページ"))
    if page.number < page.count:
        links.append(Link("next", page.url(page.number + 1), media_type, "次のページ"))
    links.append(Link("last", page.url(page.count), media_type, "最後のページ"))
    return links


def render_feed(feed: Feed, *, site_name: str, site_uri: str) -> bytes:
    root = ET.Element(_q(ATOM_NS, "feed"), {"{http://www.w3.org/XML/1998/namespace}lang": "ja"})
    _text(root, "id", feed.id)
    _text(root, "title", feed.title)
    _text(root, "updated", iso(feed.updated))
    _author(root, site_name, site_uri)
    if feed.icon:
        _text(root, "icon", feed.icon)
    links = [
        Link("self", feed.self_href, feed.media_type),
        Link("start", feed.start_href, urls.NAVIGATION, site_name),
        Link("search", feed.search_href, urls.OPENSEARCH, "検索"),
    ]
    if feed.up_href:
        links.append(Link("up", feed.up_href, _FEED_TYPES[feed.up_kind]))
    if feed.page is not None:
        links += paging_links(feed.page, feed.media_type)
        _text(root, "totalResults", str(feed.page.total), OPENSEARCH_NS)
        _text(root, "itemsPerPage", str(feed.page.per_page), OPENSEARCH_NS)
        _text(root, "startIndex", str((feed.page.number - 1) * feed.page.per_page + 1), OPENSEARCH_NS)
    for link in (*links, *feed.extra_links):
        _link(root, link)
    for entry in feed.entries:
        _entry(root, entry)
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _entry(parent: ET.Element, entry: Entry) -> None:
    element = ET.SubElement(parent, _q(ATOM_NS, "entry"))
    _text(element, "title", entry.title)
    _text(element, "id", entry.id)
    _text(element, "updated", iso(entry.updated))
    for name in entry.authors:
        _author(element, name)
    for term in entry.categories:
        _element(element, _q(ATOM_NS, "category"), {"term": term, "label": term})
    if entry.language:
        _text(element, "language", entry.language, DC_NS)
    if entry.issued:
        _text(element, "issued", entry.issued, DC_NS)
    if entry.summary:
        _text(element, "summary", entry.summary, type="text")
    if entry.content:
        _text(element, "content", entry.content, type="text")
    for link in entry.links:
        _link(element, link)


def render_search_description(*, site_name: str, template: str) -> bytes:
    """The OpenSearch 1.1 description the catalogue's `search` link points at."""
    ns = OPENSEARCH_NS
    root = ET.Element(_q(ns, "OpenSearchDescription"))
    _text(root, "ShortName", site_name[:16], ns)
    _text(root, "Description", f"{site_name}の作品をタイトル・読み・ローマ字・作者名で検索します", ns)
    _text(root, "InputEncoding", "UTF-8", ns)
    _text(root, "OutputEncoding", "UTF-8", ns)
    _text(root, "Language", "ja", ns)
    ET.SubElement(root, _q(ns, "Url"), {"type": urls.NAVIGATION, "template": template})
    ET.SubElement(root, _q(ns, "Url"), {"type": urls.ATOM, "template": template})
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
