"""What the browser sends about a library is checked before the database sees it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from manga_app.accounts import reading
from manga_app.accounts import payloads
from manga_app.core import routes

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("12", 1200), ("10.5", 1050), (3, 300), ("0", 0), ("1.234", None), ("-1", None), ("abc", None), (True, None),
     ("1e9", None), (None, None), ("9" * 20, None), ("nan", None)],
)
def test_chapter_numbers(value, expected):
    assert payloads.chapter_hundredths(value) == expected


def test_a_volume_s_key_is_a_position_like_a_chapter_s():
    # The reader reports a volume by its unit key (routes.VOLUME_KEY + 3):
    # refusing it lost every signed-in reader's place in a volume.
    volume_3 = str(routes.VOLUME_KEY + 3)
    assert payloads.chapter_hundredths(volume_3) == int((routes.VOLUME_KEY + 3) * 100)
    assert payloads.reported_position("s", volume_3, 4, 0.0, NOW.timestamp() * 1000, now=NOW).page == 4
    assert payloads.chapter_hundredths(str(routes.VOLUME_KEY * 2)) is None


@pytest.mark.parametrize(
    ("value", "ok"),
    [("one-piece", True), ("a" * 100, True), ("a" * 101, False), ("../etc", False), ("Caps", False), ("", False),
     (None, False), ("x--y", False), ("日本", False)],
)
def test_slugs(value, ok):
    assert (payloads.valid_slug(value) is not None) is ok


@pytest.mark.parametrize(
    ("page", "offset", "ok"),
    [(0, 0.0, True), (10_000, 1.0, True), (-1, 0.0, False), (10_001, 0.0, False), (1, 1.5, False), (1, -0.1, False),
     ("3", 0.0, False), (True, 0.0, False), (2, "0.5", False)],
)
def test_positions_are_range_checked(page, offset, ok):
    assert (payloads.position("s", "1", page, offset, NOW, now=NOW) is not None) is ok


def test_a_position_from_the_future_is_clamped_to_now():
    found = payloads.position("s", "1", 0, 0.0, NOW + timedelta(days=365), now=NOW)
    assert found is not None and found.at == NOW


def entry(slug: str, chapter: str, read: tuple[str, ...] = (), read_at: str = "2026-11-20T00:00:00Z") -> reading.HistoryEntry:
    return reading.HistoryEntry(slug=slug, title="", cover="", chapter=chapter, chapter_title="", page=2, offset=0.25,
                                read_at=read_at, read=read)


def test_history_becomes_positions_and_read_marks_within_the_merge_limit():
    latest, marks = payloads.positions_from_history(
        [entry("s", "3", read=("1", "2", "3")), entry("BAD SLUG", "1"), entry("t", "x")], now=NOW
    )
    assert [(p.slug, p.chapter_hundredths, p.page) for p in latest] == [("s", 300, 2)]
    assert [(p.slug, p.chapter_hundredths, p.page) for p in marks] == [("s", 100, 0), ("s", 200, 0)]
    # A mark is older than the position, so the position stays the series' last chapter.
    assert all(mark.at < latest[0].at for mark in marks)
    # The position's own chapter was read to the end there.
    assert latest[0].finished and all(mark.finished for mark in marks)
    many = [entry(f"s{i}", "1", read=tuple(str(n) for n in range(2, 40))) for i in range(600)]
    latest, marks = payloads.positions_from_history(many, now=NOW)
    assert len(latest) + len(marks) == payloads.MAX_MERGE


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", []), ("not json", []), ('{"a":1}', []), ('["a","b","a",3,"../x"]', ["a", "b"])],
)
def test_browser_follows_tolerate_garbage(text, expected):
    assert payloads.parse_follows(text) == expected


def test_a_browser_library_keeps_statuses_and_reads_the_older_format():
    older = '["a", {"slug": "b", "status": "want", "added": "2026-01-01T00:00:00Z"}, {"slug": "c", "status": "bogus"}]'
    found = payloads.parse_library(older)
    assert found == [payloads.BrowserFollow("a"), payloads.BrowserFollow("b", "want", "2026-01-01T00:00:00Z"),
                     payloads.BrowserFollow("c")]
    changed = payloads.with_status(found, "a", "paused", added="x")
    assert payloads.parse_library(payloads.dump_library(changed))[0] == payloads.BrowserFollow("a", "paused")
    assert payloads.with_status(found, "d", "want", added="2026-01-02T00:00:00Z")[0].slug == "d"


def test_a_full_browser_library_refuses_one_more_and_drops_nothing():
    full = [payloads.BrowserFollow(f"s{i}") for i in range(payloads.MAX_MERGE)]
    assert payloads.with_status(full, "one-more", "want", added="") is None
    assert payloads.with_status(full, "s0", "want", added="")[0] == payloads.BrowserFollow("s0", "want")


def test_oversized_browser_stores_are_refused_whole():
    longest = payloads.dump_library([payloads.BrowserFollow(f"{i:03d}" + "a" * (payloads.MAX_SLUG - 3), "finished", "2026-01-01T00:00:00Z")
                                     for i in range(payloads.MAX_MERGE)])
    assert len(payloads.parse_follows(longest)) == payloads.MAX_MERGE
    with pytest.raises(payloads.StoreTooLarge):
        payloads.parse_follows(longest + " " * payloads.MAX_FOLLOWS_CHARS)
    payloads.check_history_size("[]")
    with pytest.raises(payloads.StoreTooLarge):
        payloads.check_history_size("x" * (payloads.MAX_HISTORY_CHARS + 1))


MS = int(NOW.timestamp() * 1000)


@pytest.mark.parametrize(
    ("read_at", "expected"),
    [
        (MS, NOW),
        (MS - 60_000, NOW - timedelta(minutes=1)),
        (MS + 60_000, NOW + timedelta(minutes=1)),
        (MS + 3_600_000, NOW + payloads.FUTURE_WINDOW),  # a fast clock cannot pin the entry on top
        (MS - 90 * 86_400_000, NOW - payloads.PAST_WINDOW),
        (0, NOW - payloads.PAST_WINDOW),
    ],
)
def test_the_reader_s_device_time_is_clamped_to_a_window_around_now(read_at, expected):
    found = payloads.reported_position("s", "2", 3, 0.5, read_at, now=NOW)
    assert found is not None and (found.chapter_hundredths, found.page, found.offset, found.at) == (200, 3, 0.5, expected)


@pytest.mark.parametrize(
    "args",
    [
        ("s", "2", 3, 0.5, -1), ("s", "2", 3, 0.5, 10**15), ("s", "2", 3, 0.5, "1700000000000"), ("s", "2", 3, 0.5, True),
        ("s", "2", 3, 0.5, float("nan")), ("s", "2", 3, float("nan"), MS), ("s", "2", 3, float("inf"), MS),
        ("S" * 500, "2", 3, 0.5, MS), ("s", "x" * 10_000, 3, 0.5, MS), ("s", "2", 10**9, 0.5, MS), (None, "2", 3, 0.5, MS),
    ],
)
def test_malformed_reader_reports_are_refused(args):
    assert payloads.reported_position(*args, now=NOW) is None


def test_chapters_left_part_way_go_up_with_their_page_and_not_as_read():
    left = reading.HistoryEntry(slug="s", title="", cover="", chapter="3", chapter_title="", page=2, offset=0.25,
                                read_at="2026-11-20T00:00:00Z", read=("1",), opened=(("2", 5), ("3", 2), ("4", -1)))
    latest, marks = payloads.positions_from_history([left], now=NOW)
    assert [(p.chapter_hundredths, p.page, p.finished) for p in latest] == [(300, 2, False)]
    assert [(p.chapter_hundredths, p.page, p.finished) for p in marks] == [(100, 0, True), (200, 5, False)]


@pytest.mark.parametrize(
    ("page", "count", "expected"),
    [(0, 8, (0, False)), (6, 8, (6, False)), (7, 8, (7, True)), (40, 8, (40, True)), (0, 1, (0, True)), (3, 0, (3, True))],
    ids=["first", "before-last", "last", "past-the-end", "one-page", "no-pages"],
)
def test_a_reported_page_is_read_when_it_is_the_chapter_s_last(page, count, expected):
    found = payloads.Position("s", 100, page, 0.0, NOW)
    checked = payloads.at_page_of(found, count)
    assert (checked.page, checked.finished) == expected
