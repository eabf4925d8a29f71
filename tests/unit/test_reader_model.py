"""The reader's pure rules: manifests, settings, the daily view key, resume."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from manga_app import reading
from manga_app.crypto import encrypt_text
from manga_app.pages import reader_model as model

KEY = "3f" * 8 + "a1" * 8 + "5c" * 16
OTHER_KEY = "11" * 8 + "e2" * 24
PAGE = {"url": "/media/a-w1200.webp", "saver_url": "/media/a-w720.webp", "width": 720, "height": 1024}


def _envelope(plaintext: str, key: str = KEY) -> str:
    data, iv = encrypt_text(plaintext, key)
    return json.dumps({"iv": iv, "data": data})


# ---- manifests --------------------------------------------------------------


def test_a_manifest_decrypts_to_its_page_list() -> None:
    pages = [PAGE, {**PAGE, "width": 1200, "height": 853}]
    assert model.decrypt_manifest(_envelope(json.dumps(pages)), KEY) == pages


def test_a_missing_saver_url_falls_back_to_the_full_image() -> None:
    page = {"url": "/media/b.webp", "width": 10, "height": 20}
    assert model.parse_manifest_pages(json.dumps([page])) == [{**page, "saver_url": "/media/b.webp"}]


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
)
def test_unreadable_manifests_are_refused(payload: str, key: str) -> None:
    with pytest.raises(model.ManifestError):
        model.decrypt_manifest(payload, key)


# ---- settings ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected_changes"),
    [
        ("", {}),
        ("garbage", {}),
        ("[1]", {}),
        ('{"manga_mode": "vertical"}', {"manga_mode": "vertical"}),
        ('{"manga_mode": "sideways"}', {}),
        ('{"direction": "ltr", "double": true, "offset": true}', {"direction": "ltr", "double": True, "offset": True}),
        ('{"double": "yes", "fit": "huge"}', {}),
        ('{"fit": "original", "saver": true}', {"fit": "original", "saver": True}),
        ('{"preload": 5}', {"preload": 5}),
        ('{"preload": 7}', {}),
        ('{"preload": true}', {}),
        ('{"preload": -1, "unknown": 1}', {"preload": -1}),
    ],
)
def test_stored_settings_are_checked(text: str, expected_changes: dict) -> None:
    assert model.parse_settings(text) == {**model.DEFAULT_SETTINGS, **expected_changes}


@pytest.mark.parametrize(
    ("change", "series_direction", "expected_changes"),
    [
        ({"mode": "vertical"}, "rtl", {"manga_mode": "vertical"}),
        ({"mode": "paged"}, "vertical", {"webtoon_mode": "paged"}),
        ({"mode": "sideways"}, "rtl", {}),
        ({"double": True, "offset": True}, "rtl", {"double": True, "offset": True}),
        ({"double": 1}, "rtl", {}),  # a number is not a switch
        ({"preload": 10, "saver": True}, "ltr", {"preload": 10, "saver": True}),
        ({"manga_mode": "vertical"}, "rtl", {}),  # only through "mode"
        ({"fit": "height"}, "rtl", {"fit": "height"}),
        ("nonsense", "rtl", {}),
    ],
)
def test_a_change_from_the_reader_is_applied_and_checked(change: object, series_direction: str, expected_changes: dict) -> None:
    assert model.apply_change(model.DEFAULT_SETTINGS, change, series_direction) == {**model.DEFAULT_SETTINGS, **expected_changes}


def test_a_refused_change_keeps_the_previous_choice() -> None:
    chosen = {**model.DEFAULT_SETTINGS, "fit": "width"}
    assert model.apply_change(chosen, {"fit": "enormous"}, "rtl")["fit"] == "width"


def test_settings_survive_a_round_trip() -> None:
    settings = {**model.DEFAULT_SETTINGS, "double": True, "preload": 2}
    assert model.parse_settings(model.dump_settings(settings)) == settings


@pytest.mark.parametrize(
    ("changes", "series_direction", "mode", "direction"),
    [
        ({}, "rtl", "paged", "rtl"),
        ({}, "ltr", "paged", "ltr"),
        ({}, "vertical", "vertical", "ltr"),
        ({"manga_mode": "vertical"}, "rtl", "vertical", "rtl"),
        ({"manga_mode": "vertical"}, "vertical", "vertical", "ltr"),
        ({"webtoon_mode": "paged"}, "rtl", "paged", "rtl"),
        ({"webtoon_mode": "paged"}, "vertical", "paged", "ltr"),
        ({"direction": "ltr"}, "rtl", "paged", "ltr"),
        ({"direction": "rtl"}, "ltr", "paged", "rtl"),
    ],
)
def test_mode_and_direction_follow_the_series_unless_chosen(changes: dict, series_direction: str, mode: str, direction: str) -> None:
    settings = {**model.DEFAULT_SETTINGS, **changes}
    assert model.effective_mode(settings, series_direction) == mode
    assert model.effective_direction(settings, series_direction) == direction


@pytest.mark.parametrize(
    ("preload", "page_count", "expected"),
    [(0, 10, 10), (0, 59, 59), (0, 60, 6), (0, 300, 6), (2, 10, 2), (10, 300, 10), (-1, 300, 300)],
)
def test_preload_counts(preload: int, page_count: int, expected: int) -> None:
    assert model.preload_count(preload, page_count) == expected


# ---- views ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "key", "day", "counts", "kept"),
    [
        ("", "a/1", "2026-01-02", True, ["a/1"]),
        ('{"day": "2026-01-02", "seen": ["a/1"]}', "a/1", "2026-01-02", False, ["a/1"]),  # a reload
        ('{"day": "2026-01-02", "seen": ["a/1"]}', "a/2", "2026-01-02", True, ["a/1", "a/2"]),
        ('{"day": "2026-01-01", "seen": ["a/1"]}', "a/1", "2026-01-02", True, ["a/1"]),  # a new day
        ("broken", "a/1", "2026-01-02", True, ["a/1"]),
        ('{"day": "2026-01-02", "seen": "a/1"}', "a/1", "2026-01-02", True, ["a/1"]),
    ],
)
def test_a_view_counts_once_per_chapter_per_day(stored: str, key: str, day: str, counts: bool, kept: list[str]) -> None:
    counted, record = model.claim_view(stored, key, day)
    assert counted is counts
    assert json.loads(record) == {"day": day, "seen": kept}


def test_the_view_record_stays_small() -> None:
    record = ""
    for index in range(model.MAX_VIEW_KEYS + 50):
        _, record = model.claim_view(record, f"s/{index}", "2026-01-02")
    assert len(json.loads(record)["seen"]) == model.MAX_VIEW_KEYS


@pytest.mark.parametrize(
    ("now", "day"),
    [
        (datetime(2026, 1, 1, 14, 59, tzinfo=UTC), "2026-01-01"),
        (datetime(2026, 1, 1, 15, 0, tzinfo=UTC), "2026-01-02"),  # midnight in Japan
    ],
)
def test_the_view_day_is_the_day_in_japan(now: datetime, day: str) -> None:
    assert model.view_day(now) == day


# ---- resume -----------------------------------------------------------------


def _entry(slug: str, chapter: str, page: int, offset: float) -> reading.HistoryEntry:
    return reading.HistoryEntry(slug, "t", "", chapter, "", page, offset, "2026-01-01T00:00:00Z")


@pytest.mark.parametrize(
    ("entries", "chapter", "page_count", "expected"),
    [
        ([], "1", 10, (0, 0.0)),
        ([_entry("s", "1", 4, 0.5)], "1", 10, (4, 0.5)),
        ([_entry("s", "1", 4, 0.5)], "2", 10, (0, 0.0)),  # another chapter starts at the top
        ([_entry("t", "1", 4, 0.5)], "1", 10, (0, 0.0)),
        ([_entry("s", "1", 40, 0.5)], "1", 10, (9, 0.5)),  # the chapter got shorter
        ([_entry("s", "10.5", 2, 0.0)], "10.5", 3, (2, 0.0)),
    ],
)
def test_resume_position(entries: list, chapter: str, page_count: int, expected: tuple[int, float]) -> None:
    assert model.resume_position(entries, "s", chapter, page_count) == expected


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
    assert model.clamp_progress(page, offset, 10) == expected
