"""core/clock.py: the time a page's relative times are shown against."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from manga_app.core.clock import page_minute, page_now, pinned_minute
from manga_app.core.display import relative_time_ja


def test_every_render_within_a_minute_shows_the_same_times_and_the_next_minute_moves_on():
    published = datetime(2026, 11, 30, 4, 58, 10, tzinfo=UTC)
    first, last = datetime(2026, 11, 30, 5, 10, 0, tzinfo=UTC), datetime(2026, 11, 30, 5, 10, 59, 999_999, tzinfo=UTC)
    assert relative_time_ja(published, now=page_now(first)) == relative_time_ja(published, now=page_now(last)) == "12分前"
    assert page_minute(first) == page_minute(last)
    after = last + timedelta(microseconds=1)
    assert page_minute(after) == page_minute(first) + 1
    assert relative_time_ja(published, now=page_now(after)) == "13分前"


def test_a_chapter_published_a_moment_ago_is_never_in_the_future_and_at_most_a_minute_old():
    start = datetime(2026, 11, 30, 5, 10, 0, tzinfo=UTC)
    for second in range(60):
        now = start + timedelta(seconds=second, milliseconds=500)
        for back in (0, 1, 30):
            shown = relative_time_ja(now - timedelta(seconds=back), now=page_now(now))
            assert shown in ("たった今", "1分前"), (second, back, shown)
        assert relative_time_ja(now, now=page_now(now)) == "たった今"


def test_the_minute_asked_without_a_time_is_the_minute_of_now():
    for _ in range(3):
        before = page_minute(datetime.now(UTC))
        asked = page_minute()
        after = page_minute(datetime.now(UTC))
        if before == after:  # not asked across a minute's turn
            assert asked == before == int(page_now().timestamp()) // 60
            return
    raise AssertionError("three minutes turned while asking")


def test_within_a_pinned_minute_every_time_is_shown_against_that_minute():
    minute = page_minute(datetime(2026, 11, 30, 5, 10, 30, tzinfo=UTC))
    with pinned_minute(minute):
        assert page_now() == datetime(2026, 11, 30, 5, 11, tzinfo=UTC)
        assert page_minute() == minute
        # a time given is its own
        assert page_now(datetime(2026, 1, 1, 0, 0, 1, tzinfo=UTC)) == datetime(2026, 1, 1, 0, 1, tzinfo=UTC)
    assert page_now() > datetime(2026, 11, 30, 5, 12, tzinfo=UTC)  # today's, outside it
