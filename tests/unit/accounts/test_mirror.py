"""The browser's copy of the account's history: what goes up (the browser's
news) and what comes down (the account's history in the reader's format)."""

from __future__ import annotations

from datetime import UTC, datetime

from manga_app.accounts import reading
from manga_app.accounts.mirror import SeriesLook, mirror, unsent
from manga_app.accounts.progress import HistoryRow

T = datetime(2026, 11, 1, tzinfo=UTC)
LOOKS = {"a": SeriesLook("aの題", "a.webp"), "b": SeriesLook("bの題", "b.webp")}.get


def local(slug: str, chapter: str, read_at: str, read: tuple[str, ...] = ()) -> reading.HistoryEntry:
    return reading.HistoryEntry(slug=slug, title="", cover="", chapter=chapter, chapter_title="話の題", page=1, offset=0.0,
                                read_at=read_at, read=read or (chapter,))


def row(slug: str, hundredths: int, read: tuple[int, ...], title: str = "") -> HistoryRow:
    return HistoryRow(series_slug=slug, chapter_hundredths=hundredths, page=7, offset=0.5, updated_at=T, read=read, chapter_title=title)


def test_the_account_s_history_comes_down_in_the_reader_s_format():
    [entry] = mirror([row("a", 300, (100, 300), "三話")], [local("a", "2", "2026-10-01T00:00:00Z")], LOOKS)
    assert (entry.chapter, entry.chapter_title, entry.page, entry.offset) == ("3", "三話", 7, 0.5)
    assert (entry.title, entry.cover, entry.read_at, entry.read) == ("aの題", "a.webp", "2026-11-01T00:00:00Z", ("1", "3"))


def test_the_account_is_the_truth_a_series_it_lacks_is_gone_and_unknown_series_are_left_out():
    entries = mirror([row("a", 100, (100,)), row("zzz", 100, (100,))], [local("b", "1", "2026-12-01T00:00:00Z")], LOOKS)
    assert [entry.slug for entry in entries] == ["a"]


def test_a_chapter_title_only_the_browser_knew_is_kept_for_the_same_chapter():
    [entry] = mirror([row("a", 200, (200,))], [local("a", "2", "2026-10-01T00:00:00Z")], LOOKS)
    assert entry.chapter_title == "話の題"
    [entry] = mirror([row("a", 300, (300,))], [local("a", "2", "2026-10-01T00:00:00Z")], LOOKS)
    assert entry.chapter_title == ""


def test_decimal_chapters_keep_their_url_form():
    [entry] = mirror([row("a", 1050, (1050,))], [], LOOKS)
    assert entry.chapter == "10.5" and entry.read == ("10.5",)


def test_only_what_the_account_lacks_goes_up():
    rows = [row("a", 300, (100, 300))]
    same = local("a", "3", "2026-11-01T00:00:00Z", ("1", "3"))
    later = local("a", "3", "2026-11-02T00:00:00Z", ("1", "3"))
    new_mark = local("a", "3", "2026-10-01T00:00:00Z", ("2", "3"))
    other_series = local("b", "1", "2026-01-01T00:00:00Z")
    assert unsent([same], rows) == []
    assert unsent([later, new_mark, other_series], rows) == [later, new_mark, other_series]


def test_chapters_left_part_way_come_down_with_their_page_and_are_not_read():
    part_way = HistoryRow(series_slug="a", chapter_hundredths=300, page=4, offset=0.0, updated_at=T, read=(100,),
                          opened=((200, 2), (300, 4)))
    [entry] = mirror([part_way], [], LOOKS)
    assert entry.read == ("1",) and entry.opened == (("2", 2), ("3", 4))
    assert reading.chapter_marks(entry, {"1": 8, "2": 8, "3": 8}).left == {"2": (2, 8), "3": (4, 8)}


def test_a_chapter_finished_or_opened_in_the_browser_that_the_account_lacks_goes_up():
    rows = [HistoryRow(series_slug="a", chapter_hundredths=300, page=4, offset=0.0, updated_at=T, read=(100,), opened=((300, 4),))]
    base = reading.HistoryEntry(slug="a", title="", cover="", chapter="3", chapter_title="", page=4, offset=0.0,
                                read_at="2026-10-01T00:00:00Z", read=("1",), opened=(("3", 4),))
    finished_here = reading.HistoryEntry(**{**base.__dict__, "read": ("1", "3"), "opened": ()})
    opened_here = reading.HistoryEntry(**{**base.__dict__, "opened": (("2", 1), ("3", 4))})
    assert unsent([base], rows) == []
    assert unsent([finished_here, opened_here], rows) == [finished_here, opened_here]
