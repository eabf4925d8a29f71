"""The sitemap's XML and how a big sitemap is cut into parts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from manga_app.web.sitemap import index_xml, slices, urlset_xml, w3c_date

COUNTS = [("static", 2), ("genres", 3), ("series", 10), ("chapters", 100)]


@pytest.mark.parametrize(
    ("start", "stop", "expected"),
    [
        (0, 4, [("static", 0, 2), ("genres", 0, 2)]),
        (0, 1000, [("static", 0, 2), ("genres", 0, 3), ("series", 0, 10), ("chapters", 0, 100)]),
        (5, 15, [("series", 0, 10)]),
        (14, 20, [("series", 9, 1), ("chapters", 0, 5)]),
        (110, 120, [("chapters", 95, 5)]),
        (115, 200, []),
    ],
)
def test_slices(start, stop, expected):
    assert slices(COUNTS, start, stop) == expected


def test_parts_cover_every_address_once():
    seen = []
    for start in range(0, 115, 7):
        for source, offset, limit in slices(COUNTS, start, start + 7):
            seen.extend((source, offset + i) for i in range(limit))
    assert len(seen) == len(set(seen)) == 115


def test_urlset_escapes_and_dates():
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=9)))
    xml = urlset_xml("https://m.example", [("/manga/a", moment), ("/genre/A%26B?x=1&y=2", None)])
    assert "<url><loc>https://m.example/manga/a</loc><lastmod>2026-01-01T18:04:05+00:00</lastmod></url>" in xml
    assert "<loc>https://m.example/genre/A%26B?x=1&amp;y=2</loc></url>" in xml
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')


def test_index_names_every_part():
    xml = index_xml("https://m.example", 3, datetime(2026, 1, 1, tzinfo=UTC))
    assert xml.count("<sitemap>") == 3
    assert "<loc>https://m.example/sitemap.xml?part=3</loc><lastmod>2026-01-01T00:00:00+00:00</lastmod>" in xml


def test_w3c_date_is_utc():
    assert w3c_date(datetime(2026, 5, 1, 9, tzinfo=timezone(timedelta(hours=9)))) == "2026-05-01T00:00:00+00:00"
