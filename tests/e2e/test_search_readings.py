"""Japanese that reads right (issue 34): every demo title is found by its
hiragana reading, its romaji in Hepburn and in kunrei-shiki, and each kanji
word of it; a kanji query finds a title written in kana (猫 -> ねこまち日和);
an author is found by how their name is read, and the title page shows that
reading over the name; a reading the EPUB gives (file-as) wins."""

from __future__ import annotations

import re
import subprocess
import time

import httpx
import pytest
from playwright.sync_api import Page, expect

from manga_app.catalogue.readings import readings_for
from manga_app.core import routes
from manga_app.demo.catalogue_data import CATALOGUE
from tests.e2e.conftest import DEMO_SERIES, ROOT, wait_for_hydration
from tests.unit.catalogue.builders import distinct_pages
from tests.unit.catalogue.test_epub import write_epub
from tests.unit.catalogue.test_file_readings import EPUB3

RESULTS = "main .card-grid[aria-label='検索結果'] .card-title"
# Hepburn spellings and their kunrei-shiki ones (longest first).
_KUNREI = (("sha", "sya"), ("shu", "syu"), ("sho", "syo"), ("cha", "tya"), ("chu", "tyu"), ("cho", "tyo"),
           ("ja", "zya"), ("ju", "zyu"), ("jo", "zyo"), ("shi", "si"), ("chi", "ti"), ("tsu", "tu"),
           ("fu", "hu"), ("ji", "zi"))


def kunrei(hepburn: str) -> str:
    return re.sub("|".join(spelled for spelled, _ in _KUNREI), lambda found: dict(_KUNREI)[found.group()], hepburn)


def _lists(html: str, title: str) -> bool:
    """The server's search page has results and names `title` among them (the
    heading and the box repeat the query, so the title alone proves nothing)."""
    results = html.partition('aria-label="検索結果"')[2]
    return f">{title}<" in results


def demo_titles() -> list[str]:
    """The demo catalogue the server was started with (conftest imports its
    first DEMO_SERIES). Not the newest grid page: other modules import
    series of their own while the server runs (25 paging samples sharing
    one kanji word among them), which pushed demo titles off that page and
    made the test's outcome depend on the order modules ran in."""
    return [series.title for series in CATALOGUE[:DEMO_SERIES]]


def first_three(page: Page, base_url: str, query: str) -> list[str]:
    page.goto(base_url + routes.search_url(q=query))
    wait_for_hydration(page)
    # The heading and the cards change in one update: once it names this query, the cards are its results.
    expect(page.locator("h1")).to_have_text(f"「{query}」の検索結果")
    expect(page.locator(RESULTS).first).to_be_visible()
    return [text.strip() for text in page.locator(RESULTS).all_inner_texts()[:3]]


def test_every_demo_title_is_found_by_its_reading_romaji_in_both_systems_and_its_kanji_words(
    base_url: str, page: Page
) -> None:
    titles = demo_titles()
    assert len(titles) >= 8
    missed = []
    for title in titles:
        forms = readings_for(title)
        queries = {forms.hiragana.replace(" ", ""), forms.romaji, kunrei(forms.romaji)}
        queries |= set(re.findall(r"[\u4e00-\u9fff々]+", title))
        for query in sorted(queries):
            found = first_three(page, base_url, query)
            if title not in found:
                missed.append((title, query, found))
    assert missed == []


@pytest.mark.parametrize(("query", "title"), [("猫", "ねこまち日和"), ("nekomati", "ねこまち日和")])
def test_a_kanji_or_kunrei_query_finds_the_title_written_in_kana(base_url: str, page: Page, query: str, title: str) -> None:
    assert first_three(page, base_url, query)[0] == title


def test_an_author_is_found_by_the_reading_of_their_name_and_it_is_shown_over_the_name(
    base_url: str, page: Page
) -> None:
    assert "星降る街の配達人" in first_three(page, base_url, "あやせつむぎ")  # 綾瀬つむぎ
    page.goto(base_url + routes.manga_url("hoshi-furu-machi-no-haitatsunin"))
    wait_for_hydration(page)
    expect(page.locator(".title-facts .author ruby").first).to_contain_text("綾瀬つむぎ")
    expect(page.locator(".title-facts .author rt").first).to_have_text("あやせつむぎ")


def test_a_reading_the_epub_gives_finds_the_title_and_is_shown_over_the_author(
    base_url: str, server_env, page: Page, tmp_path
) -> None:
    # An operator imports a volume whose OPF gives readings (file-as) the generator gets wrong.
    library = tmp_path / "library"
    images = distinct_pages(2, seed=34)
    write_epub(
        library / "聖闘士星矢" / "聖闘士星矢 第1巻.epub",
        manifest='<item id="i1" href="p1.png" media-type="image/png"/><item id="i2" href="p2.png" media-type="image/png"/>',
        spine='<itemref idref="i1"/><itemref idref="i2"/>',
        files={"p1.png": images[0], "p2.png": images[1]},
        metadata=EPUB3,
    )
    result = subprocess.run(
        [str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(library)],
        cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    # Published, then held by the server (its next look at the published lists):
    # the site's own search page names it.
    deadline = time.monotonic() + 30
    while not _lists(httpx.get(base_url + routes.search_url(q="聖闘士星矢"), timeout=10).text, "聖闘士星矢"):
        assert time.monotonic() < deadline, "the server never picked up the import"
        time.sleep(0.5)
    # The visitor types the reading the publisher gave: the title comes first.
    assert first_three(page, base_url, "せいんとせいや")[0] == "聖闘士星矢"
    page.locator(RESULTS).first.click()
    wait_for_hydration(page)
    expect(page.locator(".title-facts .author rt").first).to_have_text("ながいごう")  # the file's reading (the name dictionary agrees)
