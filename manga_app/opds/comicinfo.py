"""ComicInfo.xml (the Anansi schema v2.0, valid against its XSD) for a
downloaded chapter or volume, so reader apps file and show it like the site
does. Tags and LocalizedSeries exist only in the v2.1 draft, so they are
left out. Pure module."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from manga_app.core import routes
from manga_app.core.text import xml_safe

# ComicInfo's Manga element: right-to-left series tell apps to turn pages that way.
MANGA_RTL, MANGA_YES = "YesAndRightToLeft", "Yes"


def comicinfo_xml(series, unit, *, pages: int, web: str = "") -> bytes:
    """`series` and `unit` are catalogue views (SeriesView, ChapterView)."""
    root = ET.Element("ComicInfo", {
        "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        "xmlns:xsd": "http://www.w3.org/2001/XMLSchema",
    })
    volume = routes.is_volume(unit.number)
    label = routes.unit_label(unit.number)
    fields = [
        ("Title", unit.title or label),
        ("Series", series.title),
        ("Number", routes.unit_number(unit.number)),
        # xs:int in the schema: a volume 2.5 has its number in Number only.
        ("Volume", routes.unit_number(unit.number) if volume and routes.unit_number(unit.number).isdigit() else ""),
        ("Summary", series.summary),
        ("Year", str(unit.published_at.year)),
        ("Month", str(unit.published_at.month)),
        ("Day", str(unit.published_at.day)),
        ("Writer", ", ".join(series.authors)),
        ("Penciller", ", ".join(series.artists)),
        ("Genre", ", ".join(series.genres)),
        ("Web", web),
        ("PageCount", str(pages)),
        ("LanguageISO", "ja"),
        ("Format", "Tankobon" if volume else ""),
        ("Manga", MANGA_RTL if series.direction == "rtl" else MANGA_YES),
    ]
    for name, value in fields:
        if value:
            ET.SubElement(root, name).text = xml_safe(value)
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
