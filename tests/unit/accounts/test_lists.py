"""Reading lists' rules (pure): statuses, the library's query, sorting and
tab counts, unread ranges and when a 完結 series is finished."""

from __future__ import annotations

from datetime import timedelta

from manga_app.accounts import lists
from tests.unit.accounts.accounts_db import T0

VOL = lists.VOLUME_START


def test_unknown_statuses_and_sorts_fall_back_to_the_defaults():
    assert lists.valid_status("want") == "want"
    assert [lists.valid_status(value) for value in ("読了", "WANT", "", None, 3, ["want"])] == [None] * 6
    assert lists.parse_query("status=paused&sort=title") == lists.LibraryQuery("paused", "title")
    assert lists.parse_query("status=%00&sort=zzz") == lists.LibraryQuery()
    assert lists.library_url("want", "updated") == "/library?status=want"
    assert lists.library_url("finished", "added") == "/library?status=finished&sort=added"


def test_a_tab_holds_its_status_in_the_chosen_order():
    rows = [
        lists.Shelved("b", "reading", "いぬ", T0 + timedelta(days=1), T0),
        lists.Shelved("a", "reading", "あさ", T0, T0 + timedelta(days=2)),
        lists.Shelved("c", "want", "かに", T0 + timedelta(days=3), T0 + timedelta(days=3)),
    ]
    assert lists.tab_counts(rows) == {"want": 1, "reading": 2, "finished": 0, "paused": 0}
    assert [row.slug for row in lists.shelf(rows, lists.LibraryQuery("reading", "updated"))] == ["b", "a"]
    assert [row.slug for row in lists.shelf(rows, lists.LibraryQuery("reading", "title"))] == ["a", "b"]
    assert [row.slug for row in lists.shelf(rows, lists.LibraryQuery("reading", "added"))] == ["a", "b"]


def test_unread_ranges_follow_the_furthest_finished_unit_of_its_kind():
    assert lists.unread_range([100, 1200, 500]) == lists.Unread(1200, VOL)
    assert lists.unread_range([VOL + 300]) == lists.Unread(VOL + 300, lists.BEYOND)
    assert lists.unread_range([]) == lists.Unread(-1, lists.BEYOND)
    assert lists.unread_of(False, False, 0, 4) == (4, True)  # a series in volumes, never read
    assert lists.unread_of(False, False, 12, 4) == (12, False)
    assert lists.unread_label(0, False) == "" and lists.unread_label(2, False) == "未読2話"


def test_an_update_needs_a_publication_after_every_sighting():
    assert lists.has_update(T0 + timedelta(hours=1), [T0, None])
    assert not lists.has_update(T0, [T0 + timedelta(hours=1), T0 - timedelta(days=1)])
    assert not lists.has_update(T0, [None]) and not lists.has_update(None, [T0])


def test_the_last_unit_of_a_completed_series_completes_it():
    keys = [100, 200, 300, VOL + 100]
    assert lists.completes(series_status="completed", unit_key=300, unit_keys=keys)
    assert lists.completes(series_status="completed", unit_key=VOL + 100, unit_keys=keys)
    assert not lists.completes(series_status="completed", unit_key=200, unit_keys=keys)
    assert not lists.completes(series_status="ongoing", unit_key=300, unit_keys=keys)
