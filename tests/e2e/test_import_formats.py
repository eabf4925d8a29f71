"""An operator imports a library in every format the importer reads, through
the real CLI while the site runs; a reader then opens each chapter and volume
in Chromium and sees its pages."""

from __future__ import annotations

import io
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import httpx
import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ROOT, wait_for_hydration

# Komga's sample archives (beside the checkout, as in CI): no free tool writes RAR.
ARCHIVES = ROOT.parent / "shared" / "fixtures" / "komga" / "archives"
SERIES = "形式見本"


def _pages(count: int, size=(600, 900)) -> list[Image.Image]:
    return [Image.new("RGB", size, (40 * i % 255, 120, 200 - 30 * i % 200)) for i in range(count)]


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _epub(path: Path, images: list[Image.Image]) -> None:
    """A fixed-layout EPUB 3 volume: volume 1 of the series, one image per spine page."""
    manifest = "".join(f'<item id="p{i}" href="p{i}.png" media-type="image/png"/>' for i in range(len(images)))
    spine = "".join(f'<itemref idref="p{i}"/>' for i in range(len(images)))
    opf = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:2</dc:identifier>'
        f'<dc:title>{SERIES} 1</dc:title><dc:language>ja</dc:language>'
        f'<meta property="belongs-to-collection" id="c">{SERIES}</meta>'
        '<meta refines="#c" property="group-position">1</meta></metadata>'
        f'<manifest>{manifest}</manifest><spine page-progression-direction="rtl">{spine}</spine></package>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr(
            "META-INF/container.xml",
            '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
            '<rootfiles><rootfile full-path="OPS/content.opf" media-type="application/oebps-package+xml"/>'
            "</rootfiles></container>",
        )
        archive.writestr("OPS/content.opf", opf)
        for i, image in enumerate(images):
            archive.writestr(f"OPS/p{i}.png", _png(image))


def _library(root: Path) -> Path:
    folder = root / SERIES
    folder.mkdir(parents=True)
    shutil.copy(ARCHIVES / "rar4.rar", folder / f"{SERIES} 第1話.cbr")
    shutil.copy(ARCHIVES / "rar5-solid.rar", folder / f"{SERIES} 第2話.cbr")
    shutil.copy(ARCHIVES / "7zip.7z", folder / f"{SERIES} 第3話.cb7")
    first, *rest = _pages(3)
    first.save(folder / f"{SERIES} 第4話.pdf", save_all=True, append_images=rest, resolution=150)
    _epub(folder / f"{SERIES} 第1巻.epub", _pages(2))
    return root


def _imported(base_url: str) -> dict | None:
    items = httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"]
    return next((item for item in items if item["title"] == SERIES), None)


@pytest.mark.skipif(not ARCHIVES.is_dir(), reason="the shared Komga sample archives are not beside the checkout")
def test_every_format_imports_and_reads_in_the_browser(base_url: str, server_env, page: Page, tmp_path: Path) -> None:
    library = _library(tmp_path / "library")
    result = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(library)],
        cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    deadline = time.monotonic() + 30
    while (item := _imported(base_url)) is None and time.monotonic() < deadline:
        time.sleep(0.5)
    assert item is not None, "the imported series never reached the published catalogue"

    page.goto(f"{base_url}/manga/{item['slug']}")
    wait_for_hydration(page)
    # Volumes and chapters in their own groups.
    expect(page.locator(".chapter-row", has_text="第1巻")).to_have_count(1)
    for number in range(1, 5):
        expect(page.locator(".chapter-row", has_text=f"第{number}話")).to_have_count(1)
    links = page.locator(".chapter-row a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert len(links) == 5
    for href in links:
        page.goto(base_url + href)
        wait_for_hydration(page)
        page.wait_for_function(
            "() => { const e = document.querySelector('.reader-root img.reader-page');"
            " return e && e.complete && e.naturalWidth > 0 }"
        )
