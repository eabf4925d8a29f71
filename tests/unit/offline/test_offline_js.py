"""assets/js/offline/store.js: what the browser keeps for reading offline
(the index of kept chapters, the size limit, the outbox of reading done
offline), run by the project's own Node against tables of cases."""

from __future__ import annotations

import json

import pytest

from tests.unit.node import JS, run_module

STORE = JS / "offline" / "store.js"
MB = 1024 * 1024


def run_store(body: str) -> object:
    """Runs `body` (which must `return` a JSON value) with store.js's exports as `m`."""
    return run_module(STORE, body)


def entry(path: str, *, saved: bool, mb: float, read_at: int, files=(), series="/manga/a") -> dict:
    return {"path": path, "paths": [path], "seriesUrl": series, "saved": saved, "bytes": int(mb * MB),
            "files": list(files), "readAt": read_at}


def test_opened_chapters_go_least_recently_read_first_and_saved_ones_never():
    items = {
        "/a-ch-1": entry("/a-ch-1", saved=True, mb=200, read_at=1),
        "/a-ch-2": entry("/a-ch-2", saved=False, mb=60, read_at=5),
        "/a-ch-3": entry("/a-ch-3", saved=False, mb=60, read_at=2),
        "/a-ch-4": entry("/a-ch-4", saved=False, mb=60, read_at=9),
    }
    plan = lambda limit_mb: run_store(f"return m.evictions({json.dumps(items)}, m.limitBytes({limit_mb}));")  # noqa: E731
    assert plan(380) == []
    assert plan(300) == ["/a-ch-3", "/a-ch-2"]
    # Saved chapters alone past the limit: every opened one goes, the saved one stays.
    assert plan(100) == ["/a-ch-3", "/a-ch-2", "/a-ch-4"]


def test_deleting_a_chapter_frees_only_the_files_no_other_chapter_uses():
    items = {
        "/a-ch-1": entry("/a-ch-1", saved=True, mb=1, read_at=1, files=["/media/p1", "/media/shared"]),
        "/a-ch-2": entry("/a-ch-2", saved=True, mb=1, read_at=1, files=["/media/p2", "/media/shared"]),
        "/b-ch-1": entry("/b-ch-1", saved=True, mb=1, read_at=1, files=["/media/p3"], series="/manga/b"),
    }
    freed = run_store(f"return m.filesToDelete({json.dumps(items)}, ['/a-ch-1']).sort();")
    assert freed == ["/a-ch-1", "/media/p1"]
    freed = run_store(f"return m.filesToDelete({json.dumps(items)}, ['/a-ch-1', '/a-ch-2']).sort();")
    assert freed == ["/a-ch-1", "/a-ch-2", "/manga/a", "/media/p1", "/media/p2", "/media/shared"]


def test_an_entry_is_found_by_any_path_of_its_chapter():
    items = {"/a-ch-1-title": {**entry("/a-ch-1-title", saved=True, mb=1, read_at=1), "paths": ["/a-ch-1", "/a-ch-1-title"]}}
    assert run_store(f"return m.entryFor({json.dumps(items)}, '/a-ch-1').path;") == "/a-ch-1-title"
    assert run_store(f"return m.entryFor({json.dumps(items)}, '/a-ch-2');") is None


CHAPTERS = [{"number": n, "url": f"/a-ch-{n}"} for n in ("4", "3", "2.5", "2", "1")]  # newest first


@pytest.mark.parametrize(
    ("read", "count", "expected"),
    [
        ([], 1, ["1"]),
        (["1", "2"], 3, ["2.5", "3", "4"]),
        (["1", "3"], 2, ["2", "2.5"]),
        (["1", "2", "2.5", "3", "4"], 3, []),
        ([], 0, []),
    ],
)
def test_the_next_unread_chapters_are_taken_in_reading_order(read, count, expected):
    picked = run_store(f"return m.nextUnread({json.dumps(CHAPTERS)}, {json.dumps(read)}, {count}).map((c) => c.number);")
    assert picked == expected


SEED = {
    "reflex___state____state": {"reader_path_rx_state_": "a-ch-1"},
    "reflex___state____state.manga_app___pages___reader_state____reader_state": {
        "pages_rx_state_": [
            {"url": "/media/1-w1200.jpg", "saver_url": "/media/1-w720.webp", "width": 720, "height": 1024},
            {"url": "/media/2-w1200.jpg", "saver_url": "", "width": 720, "height": 1024},
        ],
        "loaded_path_rx_state_": "/a-ch-1",
        "chapter_url_rx_state_": "/a-ch-1-hajimari",
        "series_url_rx_state_": "/manga/a",
        "series_title_rx_state_": "作品",
        "series_slug_rx_state_": "a",
        "chapter_number_rx_state_": "1",
        "chapter_label_rx_state_": "第1話 始まり",
    },
}


def test_a_reader_page_gives_its_pages_at_the_readers_quality():
    html = f'<html><body><div></div><script id="page-state" type="application/json">{json.dumps(SEED, ensure_ascii=False)}</script></body></html>'
    seed = run_store(f"return m.readerSeed({json.dumps(html)});")
    assert (seed["chapterUrl"], seed["seriesUrl"], seed["label"], seed["slug"], seed["number"]) == (
        "/a-ch-1-hajimari", "/manga/a", "第1話 始まり", "a", "1")
    pages = json.dumps(seed["pages"])
    assert run_store(f"return m.pageFiles({pages}, false);") == ["/media/1-w1200.jpg", "/media/2-w1200.jpg"]
    # The data saver's version where there is one.
    assert run_store(f"return m.pageFiles({pages}, true);") == ["/media/1-w720.webp", "/media/2-w1200.jpg"]


def test_a_browser_that_shows_avif_keeps_the_avif_its_pictures_show():
    pages = json.dumps([
        {"url": "/media/1-w1200.jpg", "saver_url": "/media/1-w720.webp", "avif": "/media/1-w1200.avif", "saver_avif": "/media/1-w720.avif"},
        # A strip too tall for AVIF at the reader width has only the data saver's.
        {"url": "/media/2-w1200.jpg", "saver_url": "/media/2-w720.webp", "saver_avif": "/media/2-w720.avif"},
        # Published before AVIF.
        {"url": "/media/3-w1200.jpg", "saver_url": "/media/3-w720.webp"},
    ])
    assert run_store(f"return m.pageFiles({pages}, false, true);") == ["/media/1-w1200.avif", "/media/2-w1200.jpg", "/media/3-w1200.jpg"]
    assert run_store(f"return m.pageFiles({pages}, true, true);") == ["/media/1-w720.avif", "/media/2-w720.avif", "/media/3-w720.webp"]
    # A browser without AVIF keeps what its <img> shows.
    assert run_store(f"return m.pageFiles({pages}, false, false);") == ["/media/1-w1200.jpg", "/media/2-w1200.jpg", "/media/3-w1200.jpg"]
    assert run_store(f"return m.pageFiles({pages}, true, false);") == ["/media/1-w720.webp", "/media/2-w720.webp", "/media/3-w720.webp"]


def test_a_dense_screen_keeps_the_high_dpi_avif_the_reader_shows_there():
    page = {"url": "/media/1-w1200.jpg", "saver_url": "/media/1-w720.webp", "avif": "/media/1-w1200.avif",
            "saver_avif": "/media/1-w720.avif", "hidpi_avif": "/media/1-w1600.avif", "width": 1200, "height": 1800}
    pages = json.dumps([page, {**page, "hidpi_avif": "", "avif": "/media/2-w1200.avif"}])
    tablet, phone = '{"dpr": 2, "width": 820, "height": 1180}', '{"dpr": 3, "width": 390, "height": 844}'
    assert run_store(f"return m.pageFiles({pages}, false, true, {tablet});") == ["/media/1-w1600.avif", "/media/2-w1200.avif"]
    assert run_store(f"return m.pageFiles({pages}, false, true, {phone});") == ["/media/1-w1200.avif", "/media/2-w1200.avif"]
    assert run_store(f"return m.pageFiles({pages}, true, true, {tablet});") == ["/media/1-w720.avif", "/media/1-w720.avif"]
    assert run_store(f"return m.pageFiles({pages}, false, false, {tablet});") == ["/media/1-w1200.jpg", "/media/1-w1200.jpg"]


@pytest.mark.parametrize("html", ["<html></html>", '<script id="page-state" type="application/json">{nope</script>',
                                  '<script id="page-state" type="application/json">{"x": {"pages_rx_state_": []}}</script>'])
def test_a_page_without_a_chapter_gives_nothing_to_save(html):
    assert run_store(f"return m.readerSeed({json.dumps(html)});") is None


def test_a_title_page_gives_its_cover_images():
    html = ('<img src="/icons/icon-192.png" alt=""><img class="title-cover" src="/media/c-cover320.webp" '
            'srcset="/media/c-cover160.webp 160w, /media/c-cover320.webp 320w" alt="x"><img src="data:image/gif;base64,R0">')
    assert sorted(run_store(f"return m.imageUrls({json.dumps(html)});")) == [
        "/icons/icon-192.png", "/media/c-cover160.webp", "/media/c-cover320.webp"]


# As React writes it on the server: srcSet, the source's type last.
PICTURE_COVER = (
    '<img src="/icons/icon-192.png" alt=""><picture class="cover-picture">'
    '<source sizes="160px" srcSet="/media/c-cover160.avif 160w, /media/c-cover320.avif 320w" type="image/avif"/>'
    '<img class="title-cover" src="/media/c-cover160.webp" srcset="/media/c-cover160.webp 160w, /media/c-cover320.webp 320w" alt="x">'
    '</picture><img src="/media/d.webp" alt="">'
)


@pytest.mark.parametrize(
    ("avif", "expected"),
    [
        (True, ["/icons/icon-192.png", "/media/c-cover160.avif", "/media/c-cover320.avif", "/media/d.webp"]),
        (False, ["/icons/icon-192.png", "/media/c-cover160.webp", "/media/c-cover320.webp", "/media/d.webp"]),
    ],
    ids=["avif", "no-avif"],
)
def test_a_title_page_s_picture_gives_the_cover_files_the_browser_shows(avif, expected):
    assert sorted(run_store(f"return m.imageUrls({json.dumps(PICTURE_COVER)}, {json.dumps(avif)});")) == expected


def test_the_outbox_keeps_the_last_position_and_the_furthest_page_per_chapter():
    body = """
      let items = {};
      items = m.withReport(items, '/a-ch-1', 0, 0, 1000);
      items = m.withReport(items, '/a-ch-1', 6, 0.5, 2000);
      items = m.withReport(items, '/a-ch-1', 2, 0, 3000);
      items = m.withReport(items, '/b-ch-2', 1, 0, 2500);
      return [m.reports(items), m.withoutSent(items, 2500)];
    """
    sent, left = run_store(body)
    assert sent == [
        {"path": "/b-ch-2", "page": 1, "offset": 0, "at": 2500, "furthest": 1},
        {"path": "/a-ch-1", "page": 2, "offset": 0, "at": 3000, "furthest": 6},
    ]
    # What the server took (up to its time) leaves; a later report stays.
    assert list(left) == ["/a-ch-1"]


def test_the_outbox_keeps_the_newest_chapters_when_full():
    body = "let items = {}; for (let i = 0; i < m.MAX_OUTBOX + 5; i++) items = m.withReport(items, `/a-ch-${i}`, 0, 0, 1000 + i); return Object.keys(items);"
    kept = run_store(body)
    assert len(kept) == 200 and "/a-ch-0" not in kept and "/a-ch-204" in kept


def test_offline_reading_survives_in_local_storage_and_garbage_is_an_empty_store():
    body = """
      m.keepOfflineReport('/a-ch-1', 3, 0.25, 5000);
      const kept = m.readOutbox();
      localStorage.setItem(m.OUTBOX_KEY, '{"v": 1, "items": 7');
      return [kept, m.readOutbox()];
    """
    kept, garbage = run_store(body)
    assert kept == {"/a-ch-1": {"page": 3, "offset": 0.25, "at": 5000, "furthest": 3}}
    assert garbage == {}


@pytest.mark.parametrize(("text", "expected"), [("300", 300), ("1", 1), ("2048.4", 2048), ("0", None), ("-5", None),
                                                ("abc", None), ("", None), ("100001", None)])
def test_the_size_limit_is_a_number_of_megabytes(text, expected):
    assert run_store(f"return m.parseLimit({json.dumps(text)});") == expected


def test_the_size_limit_defaults_to_300_mb():
    assert run_store("return m.readLimitMb();") == 300
    assert run_store("localStorage.setItem(m.LIMIT_KEY, 'junk'); return m.readLimitMb();") == 300
    assert run_store("localStorage.setItem(m.LIMIT_KEY, '512'); return m.readLimitMb();") == 512


@pytest.mark.parametrize(
    ("cookie", "saver"),
    [
        ("", False),
        ('manga_reader_layout={"saver":true,"mode":"paged"}', True),
        ("a=1; manga_reader_layout=%7B%22saver%22%3Atrue%7D; b=2", True),
        ('manga_reader_layout={"saver":false}', False),
        ("manga_reader_layout=garbage", False),
    ],
)
def test_the_data_saver_is_read_from_the_readers_settings_cookie(cookie, saver):
    assert run_store(f"return m.saverFromCookie({json.dumps(cookie)});") is saver


def test_read_marks_come_from_the_browsers_history():
    history = [{"slug": "a", "read": ["1", 2]}, {"slug": "b", "read": ["9"]}]
    body = f"localStorage.setItem('manga_reading_history', {json.dumps(json.dumps(history))}); return [m.readMarks('a'), m.readMarks('c')];"
    assert run_store(body) == [["1", "2"], []]


def test_the_account_shelves_are_kept_for_the_last_account_only_and_forgotten_on_sign_out():
    cards = [{"slug": "a", "title": "A"}]
    shelves = run_store(
        f"let s = m.withShelf({{}}, 'u1', 'history', {json.dumps(cards)}, 5);"
        " s = m.withShelf(s, 'u1', 'library', [], 7);"
        " return [m.lastShelf(s, 'history'), m.lastShelf(s, 'library'),"
        " m.lastShelf(m.withShelf(s, 'u2', 'library', [], 9), 'history'), m.withShelf(s, '', 'history', [], 9)];"
    )
    assert shelves == [{"cards": cards, "at": 7}, {"cards": [], "at": 7}, None, {}]
