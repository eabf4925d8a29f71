"""The reading-history format shared by the reader, title page and /history."""

from __future__ import annotations

import json

import pytest

from manga_app.accounts import reading
from manga_app.accounts.reading import HistoryEntry


def _entry(slug: str, chapter: str, *, page: int = 0) -> HistoryEntry:
    return HistoryEntry(slug=slug, title=slug, cover="", chapter=chapter, chapter_title="", page=page, offset=0.0, read_at="2026-01-01T00:00:00Z")


def test_recording_puts_the_series_first_and_keeps_its_marks() -> None:
    history = reading.record([], _entry("a", "1", page=7), finished=True)
    history = reading.record(history, _entry("b", "3"), finished=False)
    history = reading.record(history, _entry("a", "2", page=5), finished=False)
    assert [item.slug for item in history] == ["a", "b"]
    assert history[0].read == ("1",) and history[0].opened == (("2", 5),)
    assert history[0].page == 5 and history[0].chapter == "2"


def test_a_chapter_opened_is_not_read_until_its_last_page() -> None:
    history = reading.record([], _entry("a", "1", page=0), finished=False)
    assert history[0].read == () and history[0].opened == (("1", 0),)
    history = reading.record(history, _entry("a", "1", page=4), finished=False)
    assert history[0].opened == (("1", 4),)
    history = reading.record(history, _entry("a", "1", page=7), finished=True)
    assert history[0].read == ("1",) and history[0].opened == ()


def test_going_back_in_a_finished_chapter_keeps_it_read() -> None:
    history = reading.record([], _entry("a", "1", page=7), finished=True)
    history = reading.record(history, _entry("a", "1", page=1), finished=False)
    assert history[0].read == ("1",) and history[0].opened == ()
    assert history[0].page == 1  # 続きを読む reopens where the visitor is


def test_rereading_a_chapter_does_not_duplicate_its_mark() -> None:
    history = reading.record(reading.record([], _entry("a", "1"), finished=True), _entry("a", "1"), finished=True)
    assert history[0].read == ("1",)


def test_the_last_report_of_a_chapter_left_keeps_its_page_not_its_place() -> None:
    history = reading.record([], _entry("a", "1", page=2), finished=False)
    history = reading.record(history, _entry("a", "2", page=0), finished=False)
    history = reading.left_at(history, "a", "1", 3, 0.5)
    assert history[0].chapter == "2" and history[0].page == 0
    assert dict(history[0].opened) == {"1": 3, "2": 0}
    # The series' own chapter moves too; other series and unknown chapters are untouched.
    history = reading.left_at(history, "a", "2", 1, 0.25)
    assert (history[0].page, history[0].offset) == (1, 0.25)
    assert reading.left_at(history, "a", "9", 5, 0.0) == history


def test_chapter_marks_are_what_the_title_page_shows() -> None:
    entry = HistoryEntry(slug="a", title="", cover="", chapter="3", chapter_title="", page=4, offset=0.0, read_at="",
                         read=("1", "gone"), opened=(("2", 7), ("3", 4), ("4", 0), ("removed", 1)))
    marks = reading.chapter_marks(entry, {"1": 8, "2": 8, "3": 8, "4": 10})
    # Left on its last page: read. Chapters the catalogue lost are left out.
    assert marks.read == ("1", "2")
    assert marks.left == {"3": (4, 8), "4": (0, 10)}
    assert reading.chapter_marks(None, {"1": 8}) == reading.ChapterMarks((), {})


@pytest.mark.parametrize(
    ("page", "total", "read"),
    [(0, 8, False), (6, 8, False), (7, 8, True), (0, 1, True)],
    ids=["first-page", "one-before-last", "last-page", "one-page-chapter"],
)
def test_history_from_before_read_marks_were_honest_is_carried_over(page: int, total: int, read: bool) -> None:
    # An entry as the old site stored it: every chapter opened was in `read`.
    old = [{"slug": "a", "title": "A", "cover": "", "chapter": "3", "chapter_title": "", "page": page, "offset": 0.0,
            "read_at": "2026-01-01T00:00:00Z", "read": ["1", "2", "3"]}]
    entry = reading.parse_history(json.dumps(old))[0]
    # The chapters left for a later one keep their marks; the one named is at its page.
    assert entry.read == ("1", "2") and entry.opened == (("3", page),)
    marks = reading.chapter_marks(entry, {"1": 8, "2": 8, "3": total})
    assert ("3" in marks.read) is read
    assert marks.left == ({} if read else {"3": (page, total)})
    # Written back, it is in the new format and is not carried over twice.
    again = reading.parse_history(reading.dump_history([entry]))
    assert again == [entry]


def test_history_survives_a_round_trip_through_storage() -> None:
    history = reading.record(reading.record([], _entry("a", "1"), finished=True), _entry("b", "10.5"), finished=False)
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
    history = reading.record(reading.record([], _entry("a", "1"), finished=False), _entry("b", "1"), finished=False)
    assert [item.slug for item in reading.remove(history, "a")] == ["b"]
    assert reading.entry_for(history, "a").slug == "a" and reading.entry_for(history, "zzz") is None
