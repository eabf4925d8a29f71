"""The reading-history format shared by the reader, title page and /history."""

from __future__ import annotations

import json

import pytest

from manga_app import reading
from manga_app.reading import HistoryEntry


def _entry(slug: str, chapter: str, *, page: int = 0) -> HistoryEntry:
    return HistoryEntry(slug=slug, title=slug, cover="", chapter=chapter, chapter_title="", page=page, offset=0.0, read_at="2026-01-01T00:00:00Z")


def test_recording_puts_the_series_first_and_accumulates_read_marks() -> None:
    history = reading.record([], _entry("a", "1"))
    history = reading.record(history, _entry("b", "3"))
    history = reading.record(history, _entry("a", "2", page=5))
    assert [item.slug for item in history] == ["a", "b"]
    assert history[0].read == ("1", "2")
    assert history[0].page == 5 and history[0].chapter == "2"


def test_rereading_a_chapter_does_not_duplicate_its_mark() -> None:
    history = reading.record(reading.record([], _entry("a", "1")), _entry("a", "1"))
    assert history[0].read == ("1",)


def test_history_survives_a_round_trip_through_storage() -> None:
    history = reading.record(reading.record([], _entry("a", "1")), _entry("b", "10.5"))
    assert reading.parse_history(reading.dump_history(history)) == history


@pytest.mark.parametrize(
    "stored",
    ["", "not json", "{}", "[1, 2]", json.dumps([{"slug": "a"}]), json.dumps([{"slug": "a", "chapter": "1", "page": "x"}])],
    ids=["empty", "garbage", "object", "numbers", "missing-chapter", "bad-page"],
)
def test_tampered_storage_is_ignored_not_fatal(stored: str) -> None:
    assert reading.parse_history(stored) == []


def test_values_are_clamped_and_the_history_is_bounded() -> None:
    raw = [{"slug": f"s{i}", "chapter": "1", "page": -4, "offset": 7} for i in range(reading.MAX_SERIES + 50)]
    history = reading.parse_history(json.dumps(raw))
    assert len(history) == reading.MAX_SERIES
    assert history[0].page == 0 and history[0].offset == 1.0


def test_removing_a_series_forgets_only_it() -> None:
    history = reading.record(reading.record([], _entry("a", "1")), _entry("b", "1"))
    assert [item.slug for item in reading.remove(history, "a")] == ["b"]
    assert reading.entry_for(history, "a").slug == "a" and reading.entry_for(history, "zzz") is None
