"""High-DPI copies (issue 37): a page whose original is at least 1,440 px
wide gets a 1,600 px AVIF from `reencode` (which the job consumer starts
after an import). A tablet at 2x draws a page about 1,570 px wide and takes
it; a phone at 3x draws it 1,170 px wide and keeps the reader width's 1,200
px AVIF, whose bytes are half. The first page is fetched once (the server's
preload and the hydrated <picture> name the same file), and a chapter kept
on one screen still reads offline on another (the service worker serves
the page's other width)."""

from __future__ import annotations

import io
import re
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from PIL import Image, ImageDraw
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import ROOT, guarded_context
from tests.e2e.reader_helpers import counter, db, image_decoded, manifest, open_chapter
from tests.e2e.test_offline import worker_in_control
from tests.e2e.test_offline_opened import kept

TITLE = "Kouseisai Test"
WIDE, NARROW = (1600, 2400), (1000, 1500)
SIZES = [WIDE, WIDE, NARROW, WIDE]
TABLET = {"viewport": {"width": 820, "height": 1180}, "device_scale_factor": 2, "has_touch": True, "is_mobile": True}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "has_touch": True, "is_mobile": True}
TABLET_LANDSCAPE = {"width": 1180, "height": 820}


def _page_image(size: tuple[int, int], seed: int) -> bytes:
    """A black-and-white page: frames, hatching and a balloon, drawn at `size`."""
    width, height = size
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    for row in range(3):
        top = 40 + row * (height - 80) // 3
        draw.rectangle((40, top, width - 40, top + (height - 80) // 3 - 30), outline=0, width=6)
        for x in range(60 + seed * 7, width - 60, 14):
            draw.line((x, top + 20, x + 40, top + 200), fill=60, width=2)
        draw.ellipse((width // 2, top + 60, width // 2 + 300, top + 260), fill=255, outline=0, width=5)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


def _cli(server_env: dict[str, str], *args: str) -> None:
    result = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", *args],
                            cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def wide_series(server_env: dict[str, str], base_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A series of wide pages (and one narrow one) in the shared store, with its high-DPI copies."""
    root = tmp_path_factory.mktemp("hidpi") / "library"
    (root / TITLE).mkdir(parents=True)
    with zipfile.ZipFile(root / TITLE / f"{TITLE} 1.cbz", "w") as archive:
        for index, size in enumerate(SIZES):
            archive.writestr(f"{index + 1:03}.jpg", _page_image(size, index))
    _cli(server_env, "import", str(root))
    _cli(server_env, "reencode")  # what the job consumer starts after an import, and publishes
    with db(server_env) as connection:
        slug = connection.execute("select slug from series where title = ?", (TITLE,)).fetchone()[0]
    yield slug
    _cli(server_env, "remove", TITLE)  # the other modules count the demo's series


def _fetched(page: Page) -> list[str]:
    """The paths of the /media/ images this document fetched (not the offline copy's cache reads)."""
    return page.evaluate("() => performance.getEntriesByType('resource')"
                         ".filter(r => r.name.includes('/media/') && r.initiatorType !== 'fetch')"
                         ".map(r => new URL(r.name).pathname)")


def _shown(page: Page, index: int) -> str:
    return urlsplit(image_decoded(page, f".reader-stage img[data-page-index='{index}']")).path


def _turn_to(page: Page, index: int) -> None:
    page.keyboard.press("ArrowLeft")
    expect(counter(page)).to_have_text(f"{index + 1} / {len(SIZES)}")


def test_a_tablet_reads_the_high_dpi_copies_and_a_phone_the_reader_width(
    base_url: str, server_env, browser: Browser, wide_series: str
) -> None:
    pages = manifest(server_env, wide_series, "1")
    hidpi = [item.get("hidpi_avif", "") for item in pages]
    assert [bool(url) for url in hidpi] == [size[0] >= 1440 for size in SIZES], pages
    url = f"{base_url}/{wide_series}-ch-1"
    with guarded_context(browser, **TABLET) as context:
        page = context.new_page()
        open_chapter(page, url)
        # A first visit: the server knew no screen, so the pages its HTML loads at once (the first
        # and the next) are the reader width's; the others read ahead are the high-DPI copies (the
        # narrow page has none), and no page is fetched twice.
        assert _shown(page, 0) == pages[0]["avif"]
        page.wait_for_function("urls => urls.every(u => performance.getEntriesByType('resource')"
                               ".some(r => r.name.endsWith(u)))", arg=[pages[1]["avif"], pages[2]["avif"], hidpi[3]])
        assert hidpi[1] not in _fetched(page) and pages[3]["avif"] not in _fetched(page), _fetched(page)
        for index in (1, 2, 3):
            _turn_to(page, index)
        assert _shown(page, 3) == hidpi[3]
        # The next opening: the cookie told the server the screen, so the first page is the
        # high-DPI copy, preloaded by the server's HTML and fetched once.
        page.keyboard.press("Home")
        expect(counter(page)).to_have_text(f"1 / {len(SIZES)}")
        page.goto(url)
        expect(page.locator(".reader-root")).to_have_attribute("data-interactive", "true")
        assert _shown(page, 0) == hidpi[0]
        assert pages[0]["avif"] not in _fetched(page), _fetched(page)
        # The server's HTML for this browser (its cookies) preloads that very file, and nothing else.
        cookies = "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())
        html = httpx.get(url, headers={"Cookie": cookies}, timeout=10).text
        preloads = [tag for tag in re.findall(r"<link[^>]*>", html) if 'rel="preload"' in tag and 'as="image"' in tag]
        assert len(preloads) == 1 and f'href="{hidpi[0]}"' in preloads[0], preloads
    with guarded_context(browser, **PHONE) as context:
        page = context.new_page()
        for _ in range(2):  # a first visit and the next, with the cookie
            open_chapter(page, url)
            assert _shown(page, 0) == pages[0]["avif"]
            page.wait_for_function("urls => urls.every(u => performance.getEntriesByType('resource')"
                                   ".some(r => r.name.endsWith(u)))", arg=[item["avif"] for item in pages])
            assert not [path for path in _fetched(page) if path.endswith("-w1600.avif")], _fetched(page)


def test_a_chapter_kept_on_one_screen_reads_offline_on_another(
    base_url: str, server_env, browser: Browser, wide_series: str
) -> None:
    pages = manifest(server_env, wide_series, "1")
    with guarded_context(browser, **{**TABLET, "viewport": TABLET_LANDSCAPE}) as context:
        page = context.new_page()
        # Read in landscape, where a page is drawn 1,093 px wide: the reader width's copies are kept.
        open_chapter(page, f"{base_url}/{wide_series}-ch-1")
        worker_in_control(page)
        for index in range(len(SIZES)):
            assert _shown(page, index) == pages[index]["avif"]
            if index + 1 < len(SIZES):
                _turn_to(page, index + 1)
        kept(page, f"{wide_series}/1", len(SIZES))
        # Offline, turned to portrait: the reader asks for the high-DPI copies, and gets the kept ones.
        context.set_offline(True)
        page.set_viewport_size(TABLET["viewport"])
        page.reload()
        expect(page.locator(".reader-root")).to_have_attribute("data-interactive", "true")
        page.keyboard.press("Home")
        asked = []
        for index in range(len(SIZES)):
            expect(counter(page)).to_have_text(f"{index + 1} / {len(SIZES)}")
            image = page.locator(f".reader-stage img[data-page-index='{index}']")
            expect(image).to_be_visible()
            page.wait_for_function("e => e.complete && e.naturalWidth > 0", arg=image.element_handle())
            asked.append(page.locator(".reader-stage source").first.get_attribute("srcset"))
            if index + 1 < len(SIZES):
                page.keyboard.press("ArrowLeft")
        # The pages the server's HTML did not load at once asked for their high-DPI copy (which pages
        # those are depends on where the kept HTML reopens), and were drawn all the same.
        assert any(url == pages[index].get("hidpi_avif") for index, url in enumerate(asked)), asked
