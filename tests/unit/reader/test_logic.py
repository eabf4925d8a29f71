"""The reader's pure rules: manifests, settings, per-series direction, the
view day, resume and progress reports."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest

from manga_app.reader import rules
from manga_app.accounts import reading
from manga_app.core.crypto import encrypt_text
from manga_app.reader import images, logic

KEY = "3f" * 8 + "a1" * 8 + "5c" * 16
OTHER_KEY = "11" * 8 + "e2" * 24
PAGE = {"url": "/media/a-w1200.webp", "saver_url": "/media/a-w720.webp", "width": 720, "height": 1024}


def _envelope(plaintext: str, key: str = KEY) -> str:
    data, iv = encrypt_text(plaintext, key)
    return json.dumps({"iv": iv, "data": data})


# ---- manifests --------------------------------------------------------------


def test_a_manifest_decrypts_to_its_page_list() -> None:
    pages = [PAGE, {**PAGE, "width": 1200, "height": 853}]
    assert logic.decrypt_manifest(_envelope(json.dumps(pages)), KEY) == pages


@pytest.mark.parametrize(
    ("first", "expected"),
    [({"spread_offset": True}, True), ({"spread_offset": False}, False), ({}, False), ({"spread_offset": "yes"}, False)],
    ids=["on", "off", "published-before", "malformed"],
)
def test_the_chapter_s_spread_offset_comes_from_its_first_page(first: dict, expected: bool) -> None:
    pages = logic.parse_manifest_pages(json.dumps([{**PAGE, **first}, PAGE]))
    assert logic.spread_offset_of(pages) is expected
    assert "spread_offset" not in pages[1]


def test_a_missing_saver_url_falls_back_to_the_full_image() -> None:
    page = {"url": "/media/b.webp", "width": 10, "height": 20}
    assert logic.parse_manifest_pages(json.dumps([page])) == [{**page, "saver_url": "/media/b.webp"}]


def test_a_page_keeps_its_avif_copies_at_both_widths() -> None:
    page = {**PAGE, "avif": "/media/a-w1200.avif", "saver_avif": "/media/a-w720.avif"}
    assert logic.parse_manifest_pages(json.dumps([page])) == [page]


@pytest.mark.parametrize(
    "extra",
    [{}, {"avif": ""}, {"avif": 5}, {"saver_avif": None}, {"avif": ["/x"]}],
    ids=["published-before", "empty", "number", "null", "list"],
)
def test_a_page_without_a_usable_avif_has_none(extra: dict) -> None:
    [page] = logic.parse_manifest_pages(json.dumps([{**PAGE, **extra}]))
    assert "avif" not in page and "saver_avif" not in page


def test_a_tall_strip_has_an_avif_only_where_one_was_written() -> None:
    page = {**PAGE, "saver_avif": "/media/a-w720.avif"}
    assert logic.parse_manifest_pages(json.dumps([page])) == [page]


@pytest.mark.parametrize(
    ("saver", "expected"),
    [
        (False, [{"src": "/media/a-w1200.webp", "avif": "/media/a-w1200.avif", "hidpi_avif": "/media/a-w1600.avif",
                  "width": 720, "height": 1024},
                 {"src": "/media/b-w1200.jpg", "avif": "", "hidpi_avif": "", "width": 720, "height": 1024}]),
        (True, [{"src": "/media/a-w720.webp", "avif": "/media/a-w720.avif"}, {"src": "/media/b-w720.webp", "avif": ""}]),
    ],
    ids=["reader", "data-saver"],
)
def test_warm_images_name_the_avif_and_its_fallback_at_the_reader_s_quality(saver: bool, expected: list) -> None:
    pages = [
        {**PAGE, "avif": "/media/a-w1200.avif", "saver_avif": "/media/a-w720.avif", "hidpi_avif": "/media/a-w1600.avif"},
        {**PAGE, "url": "/media/b-w1200.jpg", "saver_url": "/media/b-w720.webp"},
        {**PAGE, "url": "/media/c-w1200.jpg"},
    ]
    assert images.warm_images(pages, saver=saver, count=2) == expected


@pytest.mark.parametrize(
    ("payload", "key"),
    [
        (_envelope(json.dumps([PAGE])), OTHER_KEY),  # another key: decryption gives ""
        (_envelope("[]"), KEY),  # an empty chapter is a failure, not a blank page
        (_envelope("null"), KEY),
        (_envelope("{}"), KEY),
        (_envelope("not json"), KEY),
        (_envelope(json.dumps([{"url": "", "width": 1, "height": 1}])), KEY),
        (_envelope(json.dumps([{"url": "/x", "width": 0, "height": 1}])), KEY),
        (_envelope(json.dumps([{"url": "/x", "width": "wide", "height": 1}])), KEY),
        (_envelope(json.dumps([{"url": "/x", "width": 10**6, "height": 1}])), KEY),
        (_envelope(json.dumps([{"width": 1, "height": 1}])), KEY),
        (_envelope(json.dumps(["/x"])), KEY),
        ("", KEY),
        ("<html>", KEY),
        (json.dumps({"iv": "AAAA"}), KEY),
        (json.dumps({"iv": 1, "data": 2}), KEY),
        (json.dumps([1, 2]), KEY),
    ],
    # Named, not drawn from the values: an envelope's IV is random, and test ids must be the same in every
    # process that collects them (pytest-xdist's workers).
    ids=["other-key", "empty-list", "null", "object", "not-json", "empty-url", "zero-width", "word-width", "huge-width",
         "no-url", "bare-string", "empty-payload", "html", "no-data", "numbers", "list"],
)
def test_unreadable_manifests_are_refused(payload: str, key: str) -> None:
    with pytest.raises(logic.ManifestError):
        logic.decrypt_manifest(payload, key)


# ---- settings ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected_changes"),
    [
        ("", {}),
        ("garbage", {}),
        ("[1]", {}),
        ('{"manga_mode": "vertical"}', {"manga_mode": "vertical"}),
        ('{"manga_mode": "sideways"}', {}),
        # The old single direction overrode every series: it is dropped.
        ('{"direction": "ltr", "double": true, "offset": true}', {"double": True, "offset": True}),
        ('{"directions": {"a-b": "ltr", "c": "up", "Bad Slug": "rtl", "d": 1}}', {"directions": {"a-b": "ltr"}}),
        ('{"directions": ["a"]}', {}),
        ('{"tap_swap": true}', {"tap_swap": True}),
        ('{"tap_swap": "yes"}', {}),
        ('{"double": "yes", "fit": "huge"}', {}),
        ('{"fit": "original", "saver": true}', {"fit": "original", "saver": True}),
        ('{"preload": 5}', {"preload": 5}),
        ('{"preload": 7}', {}),
        ('{"preload": true}', {}),
        ('{"preload": -1, "unknown": 1}', {"preload": -1}),
    ],
)
def test_stored_settings_are_checked(text: str, expected_changes: dict) -> None:
    assert logic.combine_settings("", text) == {**logic.DEFAULT_SETTINGS, **expected_changes}


@pytest.mark.parametrize(
    ("change", "webtoon", "expected_changes"),
    [
        ({"mode": "vertical"}, False, {"manga_mode": "vertical"}),
        ({"mode": "paged"}, True, {"webtoon_mode": "paged"}),
        ({"mode": "sideways"}, False, {}),
        ({"double": True, "offset": True}, False, {"double": True, "offset": True}),
        ({"double": 1}, False, {}),  # a number is not a switch
        ({"preload": 10, "saver": True}, False, {"preload": 10, "saver": True}),
        ({"manga_mode": "vertical"}, False, {}),  # only through "mode"
        ({"directions": {"s": "ltr"}}, False, {}),  # only through "direction"
        ({"fit": "height"}, False, {"fit": "height"}),
        ({"tap_swap": True}, False, {"tap_swap": True}),
        ({"direction": "ltr"}, False, {"directions": {"s": "ltr"}}),
        ({"direction": "auto"}, False, {}),
        ({"direction": "up"}, False, {}),
        ("nonsense", False, {}),
    ],
)
def test_a_change_from_the_reader_is_applied_and_checked(change: object, webtoon: bool, expected_changes: dict) -> None:
    updated = logic.apply_change(logic.DEFAULT_SETTINGS, change, slug="s", webtoon=webtoon)
    assert updated == {**logic.DEFAULT_SETTINGS, **expected_changes}


def test_the_one_page_offset_is_the_chapters_own_until_the_reader_picks_one() -> None:
    assert logic.DEFAULT_SETTINGS["offset"] is None  # 自動
    chosen = logic.apply_change(logic.DEFAULT_SETTINGS, {"double": True, "offset": False}, slug="s", webtoon=False)
    assert chosen["offset"] is False
    assert logic.combine_settings(*logic.split_settings(chosen))["offset"] is False
    assert logic.apply_change(chosen, {"offset": None}, slug="s", webtoon=False)["offset"] is None
    assert logic.combine_settings("", '{"offset": "yes"}')["offset"] is None


def test_turning_on_double_view_starts_from_the_chapters_own_offset() -> None:
    """A stored offset from before double view was turned on (every cookie
    written before 自動 existed holds `false`) gives way to the chapter's."""
    stored = logic.combine_settings("", '{"double": false, "offset": false}')
    assert logic.apply_change(stored, {"double": True}, slug="s", webtoon=False)["offset"] is None
    reading_double = logic.combine_settings("", '{"double": true, "offset": true}')
    assert logic.apply_change(reading_double, {"double": True}, slug="s", webtoon=False)["offset"] is True
    assert logic.apply_change(reading_double, {"fit": "width"}, slug="s", webtoon=False)["offset"] is True


def test_a_refused_change_keeps_the_previous_choice() -> None:
    chosen = {**logic.DEFAULT_SETTINGS, "fit": "width"}
    assert logic.apply_change(chosen, {"fit": "enormous"}, slug="s", webtoon=False)["fit"] == "width"


def test_a_direction_is_kept_per_series_and_作品の設定_forgets_it() -> None:
    settings = logic.apply_change(logic.DEFAULT_SETTINGS, {"direction": "ltr"}, slug="one", webtoon=False)
    settings = logic.apply_change(settings, {"direction": "rtl"}, slug="two", webtoon=False)
    assert settings["directions"] == {"one": "ltr", "two": "rtl"}
    assert logic.direction_choice(settings, "one") == "ltr"
    assert logic.direction_choice(settings, "three") == "auto"
    settings = logic.apply_change(settings, {"direction": "auto"}, slug="one", webtoon=False)
    assert settings["directions"] == {"two": "rtl"}


def test_only_the_latest_series_directions_are_remembered() -> None:
    settings = logic.DEFAULT_SETTINGS
    for index in range(logic.MAX_SERIES_DIRECTIONS + 5):
        settings = logic.apply_change(settings, {"direction": "ltr"}, slug=f"s{index}", webtoon=False)
    kept = list(settings["directions"])
    assert len(kept) == logic.MAX_SERIES_DIRECTIONS and kept[0] == "s5"
    # Choosing again makes a series the newest choice: older ones go first.
    settings = logic.apply_change(settings, {"direction": "rtl"}, slug="s5", webtoon=False)
    settings = logic.apply_change(settings, {"direction": "ltr"}, slug="new", webtoon=False)
    kept = list(settings["directions"])
    assert len(kept) == logic.MAX_SERIES_DIRECTIONS
    assert kept[-2:] == ["s5", "new"] and "s6" not in kept and settings["directions"]["s5"] == "rtl"


def test_settings_survive_a_round_trip() -> None:
    settings = {**logic.DEFAULT_SETTINGS, "double": True, "preload": 2, "directions": {"a": "ltr"}, "tap_swap": True}
    assert logic.combine_settings(*logic.split_settings(settings)) == settings


@pytest.mark.parametrize(
    ("changes", "series_direction", "webtoon", "mode", "direction"),
    [
        ({}, "rtl", False, "paged", "rtl"),
        ({}, "ltr", False, "paged", "ltr"),
        ({}, "vertical", True, "vertical", "ltr"),
        ({}, "rtl", True, "vertical", "ltr"),  # a chapter of tall strips in a manga series
        ({"manga_mode": "vertical"}, "rtl", False, "vertical", "rtl"),
        ({"manga_mode": "vertical"}, "vertical", True, "vertical", "ltr"),
        ({"webtoon_mode": "paged"}, "rtl", False, "paged", "rtl"),
        ({"webtoon_mode": "paged"}, "vertical", True, "paged", "ltr"),
        ({"directions": {"s": "ltr"}}, "rtl", False, "paged", "ltr"),
        ({"directions": {"s": "rtl"}}, "ltr", False, "paged", "rtl"),
        ({"directions": {"other": "ltr"}}, "rtl", False, "paged", "rtl"),  # another series' choice
    ],
)
def test_mode_and_direction_follow_the_series_unless_chosen(
    changes: dict, series_direction: str, webtoon: bool, mode: str, direction: str
) -> None:
    settings = {**logic.DEFAULT_SETTINGS, **changes}
    assert logic.effective_mode(settings, webtoon) == mode
    assert logic.effective_direction(settings, "s", series_direction, webtoon) == direction


@pytest.mark.parametrize(
    ("preload", "page_count", "expected"),
    [(0, 10, 10), (0, 59, 59), (0, 60, 6), (0, 300, 6), (2, 10, 2), (10, 300, 10), (-1, 300, 300)],
)
def test_preload_counts(preload: int, page_count: int, expected: int) -> None:
    assert logic.preload_count(preload, page_count) == expected


# ---- views ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "day"),
    [
        (datetime(2026, 1, 1, 14, 59, tzinfo=UTC), date(2026, 1, 1)),
        (datetime(2026, 1, 1, 15, 0, tzinfo=UTC), date(2026, 1, 2)),  # midnight in Japan
    ],
)
def test_the_view_day_is_the_day_in_japan(now: datetime, day: date) -> None:
    assert logic.view_day(now) == day


# ---- resume -----------------------------------------------------------------


SAVED_AT = "2026-01-01T00:00:00Z"
SAVED_MS = 1767225600000


def _entry(slug: str, chapter: str, page: int, offset: float, read_at: str = SAVED_AT) -> reading.HistoryEntry:
    return reading.HistoryEntry(slug, "t", "", chapter, "", page, offset, read_at)


@pytest.mark.parametrize(
    ("entries", "chapter", "page_count", "expected"),
    [
        ([], "1", 10, (0, 0.0, 0)),
        ([_entry("s", "1", 4, 0.5)], "1", 10, (4, 0.5, SAVED_MS)),
        # Another chapter: the history has no position for it (the browser's
        # per-chapter store may, see positions.js).
        ([_entry("s", "1", 4, 0.5)], "2", 10, (0, 0.0, 0)),
        ([_entry("t", "1", 4, 0.5)], "1", 10, (0, 0.0, 0)),
        ([_entry("s", "1", 40, 0.5)], "1", 10, (9, 0.5, SAVED_MS)),  # the chapter got shorter
        ([_entry("s", "10.5", 2, 0.0)], "10.5", 3, (2, 0.0, SAVED_MS)),
        ([_entry("s", "1", 4, 0.5, "garbage")], "1", 10, (4, 0.5, 0)),
    ],
)
def test_resume_position(entries: list, chapter: str, page_count: int, expected: tuple[int, float, int]) -> None:
    assert logic.resume_position(entries, "s", chapter, page_count) == expected


@pytest.mark.parametrize(
    ("page", "offset", "expected"),
    [
        (3, 0.25, (3, 0.25)),
        (-2, -1, (0, 0.0)),
        (99, 7, (9, 1.0)),
        ("4", "0.5", (4, 0.5)),
        (None, 0.5, (0, 0.0)),
        (2, float("nan"), (2, 0.0)),
    ],
)
def test_progress_from_the_browser_is_clamped(page: object, offset: object, expected: tuple[int, float]) -> None:
    assert logic.clamp_progress(page, offset, 10) == expected


NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("read_at", "expected"),
    [
        (int(NOW.timestamp() * 1000) - 5000, NOW - timedelta(seconds=5)),  # the device's clock
        (int((NOW + timedelta(hours=3)).timestamp() * 1000), NOW + timedelta(hours=3)),
        (int((NOW + timedelta(days=3)).timestamp() * 1000), NOW),  # a clock far off is not believed
        (0, NOW),
        ("soon", NOW),
        (None, NOW),
        (10**30, NOW),
    ],
)
def test_the_time_of_a_report_is_the_devices_unless_absurd(read_at: object, expected: datetime) -> None:
    assert logic.device_time(read_at, NOW) == expected


# ---- webtoon detection and the head's first paint (reader_rules) ----------------

PAGE_SIZE, STRIP, SPREAD = (720, 1024), (720, 2400), (1440, 1024)


@pytest.mark.parametrize(
    ("series_direction", "sizes", "webtoon"),
    [
        ("vertical", [PAGE_SIZE] * 5, True),  # ComicInfo says so
        ("rtl", [STRIP] * 5, True),  # strips, whatever the series says
        ("rtl", [STRIP, STRIP, STRIP, PAGE_SIZE, PAGE_SIZE], True),  # mostly strips
        ("rtl", [STRIP, STRIP, PAGE_SIZE, PAGE_SIZE], False),  # half is not mostly
        ("ltr", [PAGE_SIZE, SPREAD, PAGE_SIZE], False),
        ("rtl", [(100, 250)] * 3, False),  # exactly 2.5 is a tall page, not a strip
        ("rtl", [(100, 251)] * 3, True),
        ("rtl", [], False),
        ("rtl", [(0, 100)], False),
    ],
)
def test_a_chapter_reads_as_a_webtoon(series_direction: str, sizes: list[tuple[int, int]], webtoon: bool) -> None:
    assert rules.is_webtoon(series_direction, sizes) is webtoon


@pytest.mark.parametrize(
    ("series_direction", "webtoon", "direction"),
    [("rtl", False, "rtl"), ("ltr", False, "ltr"), ("vertical", True, "ltr"), ("rtl", True, "ltr")],
)
def test_the_series_own_direction(series_direction: str, webtoon: bool, direction: str) -> None:
    assert rules.series_default_direction(series_direction, webtoon) == direction


@pytest.mark.parametrize(
    ("cookies", "visitor"),
    [
        ({}, None),  # a browser that has not read here: the defaults hold
        ({rules.FIRST_PAGE_COOKIE: "garbage"}, None),
        ({rules.FIRST_PAGE_COOKIE: "1:s/1:3"}, {"saver": True, "key": "s/1", "page": 3}),
        ({rules.FIRST_PAGE_COOKIE: "0:t/2:0"}, {"saver": False, "key": "t/2", "page": 0}),
        # A volume's unit key (routes.VOLUME_KEY + 3) has seven digits.
        ({rules.FIRST_PAGE_COOKIE: "0:t/1000003:5"}, {"saver": False, "key": "t/1000003", "page": 5}),
        # with the screen the reader read it on (image_formats.js screenText)
        ({rules.FIRST_PAGE_COOKIE: "0:t/2:4:2.63@820x1180"}, {"saver": False, "key": "t/2", "page": 4}),
        ({rules.FIRST_PAGE_COOKIE: "0:t/2:4:2.63@820"}, None),
    ],
)
def test_what_the_readers_first_page_cookie_says(cookies: dict, visitor: dict | None) -> None:
    hint = rules.first_page_hint(cookies)
    found = None if hint == rules.NEW_VISITOR else {"saver": hint.saver, "key": hint.key, "page": hint.page}
    assert found == visitor


# ---- settings split between a cookie and localStorage ---------------------


def test_settings_go_to_the_cookie_and_the_directions_to_local_storage() -> None:
    settings = logic.normalize_settings({"fit": "width", "double": True, "directions": {"a": "ltr"}})
    cookie, stored = logic.split_settings(settings)
    assert "directions" not in json.loads(cookie) and json.loads(cookie)["fit"] == "width"
    assert json.loads(stored) == {"directions": {"a": "ltr"}}
    assert logic.combine_settings(cookie, stored) == settings


def test_settings_from_before_the_cookie_still_count_and_move_to_it() -> None:
    legacy = json.dumps({"fit": "height", "saver": True, "directions": {"b": "rtl"}})
    combined = logic.combine_settings("", legacy)
    assert combined["fit"] == "height" and combined["saver"] is True and combined["directions"] == {"b": "rtl"}
    migrated = logic.migrated_settings_cookie("", legacy)
    assert migrated is not None and logic.combine_settings(migrated, legacy) == combined
    # The cookie, once written, wins over what localStorage still holds.
    assert logic.combine_settings(json.dumps({"fit": "width"}), legacy)["fit"] == "width"
    assert logic.migrated_settings_cookie(migrated, legacy) is None
    assert logic.migrated_settings_cookie("", json.dumps({"directions": {"b": "rtl"}})) is None


@pytest.mark.parametrize("cookie", ["", "garbage", "[]", '{"fit": "huge"}'])
def test_a_garbled_settings_cookie_is_the_defaults(cookie: str) -> None:
    assert logic.combine_settings(cookie, "") == logic.normalize_settings({})


def test_an_opening_is_recorded_where_the_reader_turned_to_before_its_on_load_if_that_was_this_chapter_s_and_recent():
    opened, chapter, at = (0, 0.0), ("alpha", "1"), 1_000_000.0
    assert rules.opening_position(opened, ("alpha", "1", 2, 0.5, at - 3), chapter, at) == (2, 0.5)
    assert rules.opening_position(opened, ("alpha", "2", 2, 0.5, at - 3), chapter, at) == opened  # another chapter's
    assert rules.opening_position(opened, ("alpha", "1", 2, 0.5, at - rules.EARLY_SECONDS - 1), chapter, at) == opened
    assert rules.opening_position(opened, (), chapter, at) == opened
