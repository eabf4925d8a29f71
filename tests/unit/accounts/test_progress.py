"""Reading progress, history and removals on real SQLite and PostgreSQL:
newest write wins, one user never sees another's rows, a removal keeps a
series out of the history until it is read again, rows are capped."""

from __future__ import annotations

import uuid
from datetime import timedelta

from manga_app.accounts import progress
from manga_app.catalogue.models import Chapter
from tests.unit.accounts.accounts_db import T0, add_series, two_users


def record(session, uid: str, slug: str, chapter: int, minute: int, page: int = 1, finished: bool = False) -> bool:
    return progress.record_progress(session=session, uid=uid, slug=slug, chapter_hundredths=chapter, page=page, offset=0.0,
                                    at=T0 + timedelta(minutes=minute), finished=finished)


def test_the_newest_position_wins_whatever_order_writes_arrive_in(session):
    a, b = two_users(session)
    assert progress.record_progress(session=session, uid=a, slug="s", chapter_hundredths=300, page=9, offset=0.5, at=T0 + timedelta(minutes=5))
    assert not progress.record_progress(session=session, uid=a, slug="s", chapter_hundredths=300, page=2, offset=0.0, at=T0)
    [row] = progress.progress_rows(session=session, uid=a, slug="s")
    assert (row.page, row.offset, row.updated_at) == (9, 0.5, T0 + timedelta(minutes=5))
    assert progress.progress_rows(session=session, uid=b) == []


def test_history_is_one_row_per_series_newest_first_with_read_marks_and_chapter_titles(session):
    a, b = two_users(session)
    slug = f"s-{uuid.uuid4().hex[:6]}"
    add_series(session, slug, {100: "はじまり", 200: "つづき"})
    for series, chapter, minute, finished in [(slug, 100, 1, True), (slug, 200, 3, False), ("t", 100, 2, False)]:
        record(session, a, series, chapter, minute, page=4, finished=finished)
    rows = progress.history(session=session, uid=a)
    # Read marks are the chapters read to the end; the others are where they were left.
    assert [(row.series_slug, row.chapter_hundredths, row.read, row.opened, row.chapter_title) for row in rows] == [
        (slug, 200, (100,), ((200, 4),), "つづき"), ("t", 100, (), ((100, 4),), ""),
    ]
    assert progress.history(session=session, uid=b) == []


def test_removing_one_user_s_history_leaves_the_other_s_alone(session):
    a, b = two_users(session)
    record(session, a, "s", 100, 1)
    record(session, b, "s", 100, 1)
    assert progress.remove_history(session=session, uid=b, slug="s", now=T0 + timedelta(hours=1)) == 1
    assert [row.series_slug for row in progress.history(session=session, uid=a)] == ["s"]
    assert progress.removals(session=session, uid=a) == {}
    assert progress.clear_history(session=session, uid=a, now=T0 + timedelta(hours=1)) == 1
    assert progress.history(session=session, uid=a) == []


def test_a_removal_stops_older_copies_but_not_a_later_reading(session):
    a, _ = two_users(session)
    record(session, a, "s", 100, 1)
    removed_at = T0 + timedelta(minutes=10)
    progress.remove_history(session=session, uid=a, slug="s", now=removed_at)
    removed = progress.removals(session=session, uid=a)
    assert progress.removed_before(removed, "s", T0 + timedelta(minutes=1))  # another device's stale copy
    assert not progress.removed_before(removed, "s", T0 + timedelta(minutes=11))  # read again afterwards
    assert not progress.removed_before(removed, "other", T0)
    progress.clear_history(session=session, uid=a, now=T0 + timedelta(minutes=20))
    removed = progress.removals(session=session, uid=a)
    assert list(removed) == [progress.EVERYTHING]  # one tombstone stands for all
    assert progress.removed_before(removed, "anything", T0 + timedelta(minutes=19))


def test_tombstones_and_progress_rows_are_capped_oldest_first(session, monkeypatch):
    a, _ = two_users(session)
    monkeypatch.setattr(progress, "MAX_REMOVALS", 3)
    for minute, slug in enumerate(["a", "b", "c", "d"]):
        progress.remove_history(session=session, uid=a, slug=slug, now=T0 + timedelta(minutes=minute))
    assert sorted(progress.removals(session=session, uid=a)) == ["b", "c", "d"]
    for minute in range(5):
        record(session, a, "s", (minute + 1) * 100, minute)
    assert progress.prune_progress(session=session, uid=a, keep=3) == 2
    assert [row.chapter_hundredths for row in progress.progress_rows(session=session, uid=a)] == [500, 400, 300]


def test_reaching_the_end_stays_whatever_order_writes_arrive_in(session):
    a, _ = two_users(session)
    # The end reached on one device, then an older report of page 2 from another.
    assert record(session, a, "s", 100, 5, page=7, finished=True)
    assert not record(session, a, "s", 100, 1, page=2)
    # A newer position earlier in the chapter (reading it again) moves the place, not the mark.
    assert record(session, a, "s", 100, 9, page=1)
    [row] = progress.progress_rows(session=session, uid=a, slug="s")
    assert (row.page, row.finished) == (1, True)
    # An older report that did reach the end still counts.
    assert record(session, a, "t", 100, 5, page=3)
    assert record(session, a, "t", 100, 1, page=7, finished=True)
    [row] = progress.progress_rows(session=session, uid=a, slug="t")
    assert (row.page, row.finished) == (3, True)


def test_a_read_mark_finishes_a_chapter_left_part_way_and_keeps_its_position(session):
    a, _ = two_users(session)
    record(session, a, "s", 100, 5, page=3)
    assert progress.mark_read(session=session, uid=a, slug="s", chapter_hundredths=100, at=T0)
    assert not progress.mark_read(session=session, uid=a, slug="s", chapter_hundredths=100, at=T0)
    assert progress.mark_read(session=session, uid=a, slug="s", chapter_hundredths=200, at=T0)
    rows = {row.chapter_hundredths: (row.page, row.finished) for row in progress.progress_rows(session=session, uid=a)}
    assert rows == {100: (3, True), 200: (0, True)}


def test_chapter_page_counts_come_from_their_own_series(session):
    first, second = f"f-{uuid.uuid4().hex[:6]}", f"g-{uuid.uuid4().hex[:6]}"
    add_series(session, first, {100: "", 1050: ""})
    add_series(session, second, {200: ""})
    assert progress.chapter_page_count(session=session, slug=first, chapter_hundredths=1050) == 1
    assert progress.chapter_page_count(session=session, slug=first, chapter_hundredths=200) is None
    assert progress.chapter_page_count(session=session, slug="no-such-series", chapter_hundredths=100) is None
