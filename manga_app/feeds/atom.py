"""Atom 1.0 documents (RFC 4287) of newest chapters and volumes. Plain data
in, UTF-8 bytes out. Pure module.

Every URL is absolute (the site's origin): feed readers and the services
that poll for them keep entries apart from the feed they came in."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from manga_app.core.text import xml_safe
from manga_app.opds.feeds import ATOM_NS, iso

MEDIA_TYPE = "application/atom+xml; charset=utf-8"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    url: str  # the reader
    published: datetime
    summary: str = ""
    authors: tuple[str, ...] = ()


@dataclass(frozen=True)
class Feed:
    id: str
    title: str
    self_url: str
    page_url: str  # the HTML page the feed stands for
    updated: datetime
    author: str  # the feed's author, for entries without one of their own
    entries: Sequence[Entry] = ()
    subtitle: str = ""
    icon: str = ""
    logo: str = ""


def _q(name: str) -> str:
    return f"{{{ATOM_NS}}}{name}"


def _text(parent: ET.Element, name: str, value: str, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, _q(name), {key: xml_safe(item) for key, item in attrs.items()})
    element.text = xml_safe(value)
    return element


def _link(parent: ET.Element, rel: str, href: str, media_type: str) -> None:
    ET.SubElement(parent, _q("link"), {"rel": rel, "href": xml_safe(href), "type": media_type})


def _author(parent: ET.Element, name: str) -> None:
    _text(ET.SubElement(parent, _q("author")), "name", name)


def render(feed: Feed) -> bytes:
    root = ET.Element(_q("feed"), {_XML_LANG: "ja"})
    _text(root, "id", feed.id)
    _text(root, "title", feed.title, type="text")
    if feed.subtitle:
        _text(root, "subtitle", feed.subtitle, type="text")
    _text(root, "updated", iso(feed.updated))
    _author(root, feed.author)
    _link(root, "self", feed.self_url, "application/atom+xml")
    _link(root, "alternate", feed.page_url, "text/html")
    if feed.icon:
        _text(root, "icon", feed.icon)
    if feed.logo:
        _text(root, "logo", feed.logo)
    for entry in feed.entries:
        element = ET.SubElement(root, _q("entry"))
        _text(element, "id", entry.id)
        _text(element, "title", entry.title, type="text")
        _text(element, "published", iso(entry.published))
        _text(element, "updated", iso(entry.published))
        for name in entry.authors:
            _author(element, name)
        _link(element, "alternate", entry.url, "text/html")
        if entry.summary:
            _text(element, "summary", entry.summary, type="text")
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
