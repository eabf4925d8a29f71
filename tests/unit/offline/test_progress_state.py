"""OfflineProgressState.upload: the reading done offline, as the browser
sends it once back online, joins the history and (signed in) the account by
the rules of live reports; with a real catalogue, database and emulator tokens."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from manga_app.accounts import reading
from manga_app.offline.progress_state import OfflineProgressState
from tests.unit.accounts.test_library_state import rows, run, signed_in_browser, uid_of
from tests.unit.accounts.emulator_accounts import google_token
from tests.unit.accounts.visitors import PAGES, Browser, messages


def offline_state(browser: Browser) -> OfflineProgressState:
    return browser.root.get_substate(OfflineProgressState.get_full_name().split("."))


def report(path: str, page: int, at: int, furthest: int | None = None, offset: float = 0.0) -> dict:
    return {"path": path, "page": page, "offset": offset, "at": at, "furthest": page if furthest is None else furthest}


def minutes_ago(minutes: float) -> int:
    return int((time.time() - minutes * 60) * 1000)


def test_a_guests_offline_reading_joins_the_browsers_history(catalogue, auth_emulator):
    guest = Browser()
    run(guest.sign_out())
    state = offline_state(guest)
    first, second = minutes_ago(10), minutes_ago(5)
    # Chapter 1 read to its last page and back to page 3; then chapter 2 left at page 2.
    result = run(state.upload([report("/alpha-ch-1", 3, first, furthest=PAGES - 1), report("/alpha-ch-2-c200", 2, second)]))
    assert messages(result) == []
    assert guest.history() == [("alpha", "2", 2)]
    entry = guest.reading._entries()[0]
    assert (entry.title, entry.chapter_title, entry.read, entry.opened) == ("alphaの題", "つづき", ("1",), (("2", 2),))
    # The browser drops what the server took.
    assert state.synced_through == second


def test_signed_in_the_offline_reading_reaches_the_account_newest_wins(catalogue, auth_emulator):
    token = google_token()
    browser = signed_in_browser(token)
    uid = uid_of(token)
    state = offline_state(browser)
    run(browser.library.record_progress("alpha", "1", 1, 0.0, minutes_ago(1)))
    # Read offline earlier than the account's position: the account keeps its own.
    run(state.upload([report("/alpha-ch-1", 5, minutes_ago(30))]))
    assert rows(uid) == [("alpha", 100, 1)]
    # Read offline later: it wins; its last page reached makes it read.
    run(state.upload([report("/alpha-ch-1", PAGES - 1, minutes_ago(0.1)), report("/beta-ch-2", 4, minutes_ago(0.2))]))
    assert sorted(rows(uid)) == [("alpha", 100, PAGES - 1), ("beta", 200, 4)]
    assert browser.history()[0] == ("alpha", "1", PAGES - 1)


def test_a_chapter_read_offline_before_a_later_reading_of_its_series_keeps_only_its_page(catalogue, auth_emulator):
    guest = Browser()
    run(guest.sign_out())
    later = reading.HistoryEntry(slug="alpha", title="alphaの題", cover="", chapter="3", chapter_title="", page=6, offset=0.0,
                                 read_at=reading.now_iso(datetime.now(UTC)), opened=(("3", 6),))
    guest.reading._save([later])
    run(offline_state(guest).upload([report("/alpha-ch-1", 2, minutes_ago(60))]))
    entry = guest.reading._entries()[0]
    assert (entry.chapter, entry.page) == ("3", 6)
    assert dict(entry.opened) == {"3": 6, "1": 2}


def test_unpublished_and_malformed_reports_are_taken_without_changing_anything(catalogue, auth_emulator):
    guest = Browser()
    run(guest.sign_out())
    state = offline_state(guest)
    at = minutes_ago(1)
    result = run(state.upload([
        report("/alpha-ch-9", 1, at),  # no such chapter (unpublished meanwhile): dropped quietly
        report("/genres", 1, at),  # not a chapter
        {"path": "/alpha-ch-1", "page": -1, "offset": 0, "at": at, "furthest": 0},
        {"path": "/alpha-ch-1", "page": 1, "offset": 2.5, "at": at, "furthest": 1},
        "garbage",
    ]))
    assert messages(result) == ["error: オフラインで読んだ位置を保存できませんでした 読んだ位置の形式が正しくありません。"]
    assert guest.history() == []
    # Taken all the same, so the browser never sends them again.
    assert state.synced_through == at
    assert messages(run(state.upload("not a list"))) == [
        "error: オフラインで読んだ位置を保存できませんでした 読んだ位置の形式が正しくありません。"]


def test_a_device_clock_far_in_the_past_is_clamped_like_live_reports(catalogue, auth_emulator):
    token = google_token()
    browser = signed_in_browser(token)
    long_ago = int((datetime.now(UTC) - timedelta(days=400)).timestamp() * 1000)
    run(offline_state(browser).upload([report("/gamma-ch-1", 0, long_ago)]))
    assert rows(uid_of(token)) == [("gamma", 100, 0)]
