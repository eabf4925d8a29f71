"""A series published as volumes only: what the public files and pages say
about its latest unit. A volume's internal key (1,000,000 + n) must never
reach anything published; the list names the unit in words a reader and an
app understand (`latest_unit`), and the site still links it as a volume."""

from __future__ import annotations

import io
import json
import re
import subprocess
import zipfile
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

from manga_app.core import routes
from manga_app.core.crypto import decrypt_text
from tests.e2e.conftest import ROOT, wait_for_hydration
from tests.e2e.reader_helpers import content_key, counter, imported_item, open_chapter

SERIES = "巻だけ見本"
INTERNAL_KEY = "1000001"


def _markup(page_html: str) -> str:
    """What a page publishes: its markup, head and JSON-LD. Scripts are left out:
    the app's hydration state carries the keys the browser's own reading
    history is kept by."""
    return re.sub(r"<script(?![^>]*application/ld\+json)[^>]*>.*?</script>", "", page_html, flags=re.S)


def test_a_series_of_one_volume_is_published_as_volume_1_and_never_by_its_key(
    base_url: str, server_env, page: Page, tmp_path: Path
) -> None:
    item = imported_item(base_url, server_env, tmp_path / "library", SERIES, (("第01巻", 2),))
    slug = item["slug"]

    # The public list: a real number, and what kind of unit it is.
    assert item["latest_chapter"] == 1
    assert item["latest_unit"] == {"kind": "volume", "number": 1, "label": "第1巻"}
    listed = httpx.get(base_url + "/mangas_1.json", timeout=10).text
    assert INTERNAL_KEY not in listed

    # OPDS: the series' feed and the download it offers.
    feed = httpx.get(f"{base_url}/opds/series/{slug}", timeout=10)
    assert feed.status_code == 200
    assert "第1巻" in feed.text
    assert INTERNAL_KEY not in feed.text, "the OPDS feed names the volume by its internal key"
    download = httpx.get(f"{base_url}/opds/series/{slug}/1-vol.cbz", timeout=30)
    assert download.status_code == 200
    assert len(zipfile.ZipFile(io.BytesIO(download.content)).namelist()) == 3  # two pages and ComicInfo.xml

    # The title page's and the reader's first HTML (heads, JSON-LD), and the sitemap.
    for path in (routes.manga_url(slug), routes.chapter_url(slug, routes.VOLUME_KEY + 1), "/sitemap.xml"):
        text = _markup(httpx.get(base_url + path, timeout=10).text)
        at = text.find(INTERNAL_KEY)
        assert at < 0, f"{path} names the volume by its internal key: ...{text[at - 300 : at + 60]}"

    # The site's own cards, made from the list the backend loaded, still read it as a volume.
    page.goto(f"{base_url}/search?q={SERIES}")
    wait_for_hydration(page)
    card = page.locator(".card", has_text=SERIES)
    expect(card.locator(".card-meta")).to_contain_text("第1巻")

    # The encrypted page list: served under the reader's name for the volume, never its key.
    published = Path(server_env["DATA_DIR"]) / "published"
    named = [str(path.relative_to(published)) for path in published.rglob("*") if INTERNAL_KEY in path.name]
    assert not named, f"published files named by the internal key: {named}"
    served = httpx.get(f"{base_url}/manifests/{slug}/1-vol.json", timeout=10)
    assert served.status_code == 200
    assert decrypt_text(served.json()["data"], content_key(server_env), served.json()["iv"]).count('"url"') == 2
    assert httpx.get(f"{base_url}/manifests/{slug}/{INTERNAL_KEY}.json", timeout=10).status_code == 404


def test_a_catalogue_published_under_the_keys_is_renamed_by_the_next_publish(
    base_url: str, server_env, page: Page, tmp_path: Path
) -> None:
    title = "巻だけ見本改"
    slug = imported_item(base_url, server_env, tmp_path / "library", title, (("第01巻", 3),))["slug"]
    # Given the files as the publisher before the rename left them: the volume's
    # manifest named by its key, and an index (version 1) that names it so
    manifests = Path(server_env["DATA_DIR"]) / "published" / "manifests"
    (manifests / slug / "1-vol.json").rename(manifests / slug / f"{INTERNAL_KEY}.json")
    index = manifests / ".index.json"
    header, *lines = index.read_text(encoding="utf-8").splitlines()
    lines = [line.replace('"1-vol.json"', f'"{INTERNAL_KEY}.json"') for line in lines]
    index.write_text("\n".join([json.dumps({"version": 1}), *lines]) + "\n", encoding="utf-8")
    assert httpx.get(f"{base_url}/manifests/{slug}/1-vol.json", timeout=10).status_code == 404
    # When the operator publishes after upgrading
    result = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "publish"],
        cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # Then the old file is gone, the new name is served, and the reader opens the volume
    assert not (manifests / slug / f"{INTERNAL_KEY}.json").exists()
    assert httpx.get(f"{base_url}/manifests/{slug}/1-vol.json", timeout=10).status_code == 200
    open_chapter(page, base_url + routes.chapter_url(slug, routes.VOLUME_KEY + 1))
    expect(counter(page)).to_have_text("1 / 3")
