"""OPDS 1.2 validation for tests: the spec's RELAX NG schema (with Atom's,
from RFC 4287), shipped in tests/data/opds/, checked with lxml; plus the
rules the schemas leave to Schematron or prose."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from lxml import etree

SCHEMAS = Path(__file__).resolve().parents[2] / "data" / "opds"
NS = {"a": "http://www.w3.org/2005/Atom", "pse": "http://vaemendis.net/opds-pse/ns",
      "os": "http://a9.com/-/spec/opensearch/1.1/"}
NAVIGATION = "application/atom+xml;profile=opds-catalog;kind=navigation"
ACQUISITION = "application/atom+xml;profile=opds-catalog;kind=acquisition"
ACQUIRE = "http://opds-spec.org/acquisition"


@cache
def opds_schema() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMAS / "opds.rng")))


@cache
def comicinfo_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMAS.parent / "comicinfo" / "ComicInfo-v2.0.xsd")))


def valid_comicinfo(data: bytes) -> etree._Element:
    """The parsed ComicInfo.xml; AssertionError naming every problem when it is not ComicInfo v2.0."""
    document = etree.fromstring(data)
    schema = comicinfo_schema()
    assert schema.validate(document), f"not ComicInfo v2.0: {schema.error_log}"
    return document


PSE_STREAM = "http://vaemendis.net/opds-pse/stream"


def filled_in(document: etree._Element) -> etree._Element:
    """A copy with each PSE stream link's placeholders filled in as an app
    does (the schema's atomUri refuses braces; see tests/data/opds/README.md)."""
    copy = etree.fromstring(etree.tostring(document))
    for link in copy.iter(f"{{{NS['a']}}}link"):
        if link.get("rel") == PSE_STREAM:
            link.set("href", link.get("href").replace("{pageNumber}", "0").replace("{maxWidth}", "1200"))
    return copy


def valid_feed(body: bytes, media_type: str) -> etree._Element:
    """The parsed feed; AssertionError naming every problem when it is not OPDS 1.2."""
    document = etree.fromstring(body)
    schema = opds_schema()
    assert schema.validate(filled_in(document)), f"not OPDS 1.2: {schema.error_log}"
    entries = document.findall("a:entry", NS)
    # RFC 4287's Schematron rules.
    if document.find("a:author", NS) is None:
        assert all(entry.find("a:author", NS) is not None for entry in entries), "an entry without an author"
    for entry in entries:
        links = entry.findall("a:link", NS)
        assert entry.find("a:content", NS) is not None or any(
            link.get("rel") in (None, "alternate") for link in links
        ), f"entry {entry.findtext('a:id', namespaces=NS)} has neither content nor an alternate link"
    # OPDS 1.2, 2.2 and 2.3: what each kind of feed may hold.
    acquiring = [any((link.get("rel") or "").startswith(ACQUIRE) for link in entry.findall("a:link", NS))
                 for entry in entries]
    if media_type == NAVIGATION:
        assert not any(acquiring), "a navigation feed holds an acquisition entry"
    else:
        assert media_type == ACQUISITION, f"not an OPDS feed type: {media_type}"
        assert all(acquiring), "an acquisition feed holds an entry without an acquisition link"
    self_link = document.find("a:link[@rel='self']", NS)
    assert self_link is not None and self_link.get("type") == media_type, "self link missing or of another type"
    return document


@cache
def atom_schema() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(SCHEMAS / "atom.rng")))


def valid_atom(body: bytes) -> etree._Element:
    """The parsed feed; AssertionError naming every problem when it is not
    Atom 1.0: RFC 4287's RELAX NG schema (Appendix B) and its Schematron rules."""
    document = etree.fromstring(body)
    schema = atom_schema()
    assert schema.validate(document), f"not Atom 1.0: {schema.error_log}"
    entries = document.findall("a:entry", NS)
    if document.find("a:author", NS) is None:
        assert all(entry.find("a:author", NS) is not None for entry in entries), "an entry without an author"
    for entry in entries:
        assert entry.find("a:content", NS) is not None or any(
            link.get("rel") in (None, "alternate") for link in entry.findall("a:link", NS)
        ), f"entry {entry.findtext('a:id', namespaces=NS)} has neither content nor an alternate link"
    ids = [entry.findtext("a:id", namespaces=NS) for entry in entries]
    assert len(ids) == len(set(ids)), f"entries share an id: {ids}"
    return document
