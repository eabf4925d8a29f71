"""Table-driven tests for robots.txt and the web app manifest."""

from __future__ import annotations

from pathlib import Path

import pytest

from manga_app.core.config import DEFAULT_SITE_NAMES
from manga_app.web.install import manifest_document
from manga_app.web.robots import robots_text

PROJECT_ROOT = Path(__file__).resolve().parents[3]
ASSETS = PROJECT_ROOT / "assets"
ORIGIN = "https://manga.example.jp"


def directives(text: str) -> list[tuple[str, str]]:
    """(field, value) of every non-blank line, field lower-cased."""
    pairs = []
    for line in text.splitlines():
        if line.strip():
            field, _, value = line.partition(":")
            pairs.append((field.strip().lower(), value.strip()))
    return pairs


# --------------------------------------------------------------------------
# robots.txt
# --------------------------------------------------------------------------

@pytest.mark.parametrize(
    "origin",
    [pytest.param(ORIGIN, id="production-origin"), pytest.param("http://localhost:3000", id="local")],
)
def test_robots_closes_the_whole_site_off_production(origin):
    text = robots_text(production=False, origin=origin)
    assert directives(text) == [("user-agent", "*"), ("disallow", "/"), ("sitemap", f"{origin}/sitemap.xml")]
    assert text.endswith("\n")


def test_robots_opens_the_site_on_production():
    rules = directives(robots_text(production=True, origin=ORIGIN))
    assert rules[0] == ("user-agent", "*")
    assert ("allow", "/") in rules
    assert ("disallow", "/") not in rules


@pytest.mark.parametrize(
    "private_path", [pytest.param("/library", id="library"), pytest.param("/history", id="history")]
)
def test_robots_keeps_personal_pages_out_on_production(private_path):
    rules = directives(robots_text(production=True, origin=ORIGIN))
    assert ("disallow", private_path) in rules


@pytest.mark.parametrize(
    ("origin", "sitemap"),
    [
        pytest.param(ORIGIN, f"{ORIGIN}/sitemap.xml", id="production-origin"),
        pytest.param("https://other.example.com", "https://other.example.com/sitemap.xml", id="other-origin"),
    ],
)
@pytest.mark.parametrize("production", [True, False], ids=["production", "elsewhere"])
def test_robots_names_the_sitemap_at_the_origin(origin, sitemap, production):
    text = robots_text(production=production, origin=origin)
    assert f"Sitemap: {sitemap}" in text.splitlines()
    assert text.endswith("\n")


# --------------------------------------------------------------------------
# manifest.json
# --------------------------------------------------------------------------


@pytest.fixture
def manifest() -> dict:
    return manifest_document(DEFAULT_SITE_NAMES)


MANIFEST_FIELD_CASES = [
    pytest.param("display", "standalone", id="display"),
    pytest.param("theme_color", "#f8413b", id="theme-color"),
    pytest.param("start_url", "/", id="start-url"),
    pytest.param("scope", "/", id="scope"),
    pytest.param("lang", "ja", id="lang"),
]


@pytest.mark.parametrize(("field", "expected"), MANIFEST_FIELD_CASES)
def test_the_manifest_field_has_its_value(manifest, field, expected):
    assert manifest[field] == expected


def test_the_manifest_is_named_after_the_first_site_name_in_japanese(manifest):
    assert manifest["name"] == DEFAULT_SITE_NAMES[0]
    assert any("\u3040" <= char <= "\u9fff" for char in manifest["name"])


SHORT_NAME_CASES = [
    pytest.param(DEFAULT_SITE_NAMES, id="default-names"),
    pytest.param(("とても長い名前の漫画サイトへようこそ本当に長い",), id="long-japanese-name"),
    pytest.param(("A Very Long English Manga Site Name",), id="long-english-name"),
]


@pytest.mark.parametrize("site_names", SHORT_NAME_CASES)
def test_the_short_name_fits_under_a_home_screen_icon(site_names):
    short_name = manifest_document(site_names)["short_name"]
    assert 0 < len(short_name) <= 12
    assert site_names[0].startswith(short_name)


@pytest.mark.parametrize(
    ("size", "purpose"),
    [
        pytest.param("192x192", "any", id="png-192"),
        pytest.param("512x512", "any", id="png-512"),
        pytest.param("512x512", "maskable", id="maskable"),
    ],
)
def test_the_manifest_offers_the_icons_phones_need(manifest, size, purpose):
    matching = [
        icon
        for icon in manifest["icons"]
        if icon["sizes"] == size and icon["type"] == "image/png" and purpose in icon["purpose"].split()
    ]
    assert matching, f"no {size} PNG icon with purpose {purpose!r}"


def _icon_ids(names=DEFAULT_SITE_NAMES):
    return [pytest.param(icon, id=icon["src"]) for icon in manifest_document(names)["icons"]]


@pytest.mark.parametrize("icon", _icon_ids())
def test_every_manifest_icon_exists_in_assets(icon):
    src = icon["src"]
    assert src.startswith("/")
    file = ASSETS / src.lstrip("/")
    assert file.is_file(), f"{src} is not at {file}"


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("icon", [case for case in _icon_ids() if case.values[0]["type"] == "image/png"])
def test_every_png_icon_is_a_png_of_the_declared_size(icon):
    data = (ASSETS / icon["src"].lstrip("/")).read_bytes()
    assert data[:8] == PNG_SIGNATURE
    width = int.from_bytes(data[16:20], "big")
    height = int.from_bytes(data[20:24], "big")
    assert f"{width}x{height}" == icon["sizes"]


def test_the_svg_icon_draws_its_glyph_as_an_outline():
    """No <text>: the icon looks the same on a device without a Japanese
    font, and the browser lays out no text to draw it."""
    from xml.etree import ElementTree

    svg = ElementTree.parse(ASSETS / "icons" / "icon.svg").getroot()
    names = [element.tag.rsplit("}", 1)[-1] for element in svg.iter()]
    assert "text" not in names
    assert names.count("path") == 1 and svg.find("{http://www.w3.org/2000/svg}path").get("d").startswith("M")
