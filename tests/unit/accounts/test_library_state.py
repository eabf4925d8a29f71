"""LibraryState's handlers as visitors use them, with two users, real
emulator tokens, a real catalogue and database: follows and history move
between browser and account, one user never reaches another's library,
removals stay removed, and every refused request says so and changes nothing."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta

from reflex.event import Event
from reflex.istate.data import ReflexURL, RouterData
from sqlmodel import Session

from manga_app.accounts import reading
from manga_app.accounts import payloads, progress, repository, service
from manga_app.core.db import shared_engine
from manga_app.pages.title.state import TitleProgress, TitleState
from manga_app.visitor.auth_state import MAX_DEFERRED
from tests.unit.accounts.emulator_accounts import claims_of, google_token
from tests.unit.accounts.visitors import PAGES, Browser, Storage, messages

NOW_MS = lambda: int(time.time() * 1000)  # noqa: E731 - the reader's clock


def run(coroutine):
    return asyncio.run(coroutine)


def uid_of(token: str) -> str:
    return claims_of(token)["user_id"]


def rows(uid: str) -> list[tuple[str, int, int]]:
    with Session(shared_engine()) as session:
        return [(row.series_slug, row.chapter_hundredths, row.page) for row in progress.progress_rows(session=session, uid=uid)]


def follows(uid: str) -> list[str]:
    with Session(shared_engine()) as session:
        return repository.followed_slugs(session=session, uid=uid)


def read_in_browser(slug: str, chapter: str, page: int, at: datetime, read: tuple[str, ...] = ()) -> str:
    """The browser's history as the reader writes it."""
    entry = reading.HistoryEntry(slug=slug, title="", cover="", chapter=chapter, chapter_title="", page=page, offset=0.0,
                                 read_at=reading.now_iso(at), read=read or (chapter,))
    return reading.dump_history([entry])


def signed_in_browser(token: str, storage: Storage | None = None) -> Browser:
    browser = Browser(storage)
    run(browser.sign_in(token))
    return browser


def test_a_guest_follows_in_the_browser_and_keeps_them_on_sign_in(catalogue, auth_emulator):
    guest = Browser()
    run(guest.sign_out())  # the client reports nobody
    assert messages(run(guest.library.set_follow("alpha", True))) == ["success: フォローしました"]
    assert [entry["slug"] for entry in json.loads(guest.library.follows_json)] == ["alpha"]
    assert guest.library.followed == ["alpha"] and guest.library.statuses == {"alpha": "reading"}
    token = google_token()
    guest.reading.history_json = read_in_browser("beta", "2", 4, datetime.now(UTC) - timedelta(hours=1), ("1", "2"))
    run(guest.sign_in(token))
    assert follows(uid_of(token)) == ["alpha"]
    assert sorted(rows(uid_of(token))) == [("beta", 100, 0), ("beta", 200, 4)]
    # The browser now holds the account's library, marked as its own.
    assert (guest.library.owner, guest.library.follows_json, guest.library.followed) == (uid_of(token), "", ["alpha"])
    assert guest.history() == [("beta", "2", 4)]
    assert guest.reading._entries()[0].title == "betaの題"


def test_the_browser_copy_of_one_account_never_joins_another(catalogue, auth_emulator):
    first, second = google_token(), google_token()
    a = signed_in_browser(first)
    run(a.library.set_follow("alpha", True))
    run(a.library.record_progress("alpha", "3", 7, 0.0, NOW_MS()))
    a.reading.history_json = read_in_browser("alpha", "3", 7, datetime.now(UTC))
    left_behind = a.storage()  # user A closes the tab without signing out
    b = signed_in_browser(second, left_behind)
    assert follows(uid_of(second)) == [] and rows(uid_of(second)) == []
    assert (b.library.owner, b.history(), b.library.followed) == (uid_of(second), [], [])
    assert follows(uid_of(first)) == ["alpha"] and rows(uid_of(first)) == [("alpha", 300, 7)]


def test_a_tab_that_first_sees_nobody_wipes_an_account_s_copy(catalogue, auth_emulator):
    token = google_token()
    a = signed_in_browser(token)
    run(a.library.record_progress("gamma", "1", 2, 0.0, NOW_MS()))
    run(a.library.pull())
    assert a.history() == [("gamma", "1", 2)]
    later = Browser(a.storage())  # a new tab; the Firebase session is gone
    run(later.sign_out())
    assert later.history() == [] and later.storage() == Storage(reading.dump_history([]), "", "")
    # The guest who follows now starts from nothing, and the account lost nothing.
    run(later.library.set_follow("beta", True))
    assert later.library.followed == ["beta"] and rows(uid_of(token)) == [("gamma", 100, 2)]


def test_progress_syncs_across_devices_newest_write_winning(catalogue, auth_emulator):
    token = google_token()
    phone, laptop = signed_in_browser(token), signed_in_browser(token)
    run(phone.library.record_progress("alpha", "2", 5, 0.25, NOW_MS()))
    run(laptop.library.record_progress("alpha", "2", 1, 0.0, NOW_MS() - 60_000))  # an older report arriving late
    assert rows(uid_of(token)) == [("alpha", 200, 5)]
    other = signed_in_browser(token)
    [entry] = other.reading._entries()
    assert (entry.slug, entry.chapter, entry.page, entry.offset, entry.chapter_title) == ("alpha", "2", 5, 0.25, "つづき")
    # Reading done in a browser while signed in reaches the account at the next sync.
    laptop.reading.history_json = read_in_browser("beta", "10.5", 3, datetime.now(UTC) + timedelta(seconds=2))
    run(laptop.library.pull())
    assert ("beta", 1050, 3) in rows(uid_of(token))
    run(phone.library.pull())
    assert [slug for slug, _, _ in phone.history()] == ["beta", "alpha"]


def test_a_visitor_who_is_not_signed_in_sends_nothing(catalogue, auth_emulator):
    guest = Browser()
    run(guest.sign_out())
    assert run(guest.library.record_progress("alpha", "1", 3, 0.0, NOW_MS())) is None
    with Session(shared_engine()) as session:
        assert session.exec(progress.select(progress.ReadingProgress)).all() == []


def test_bad_or_unknown_progress_is_refused_and_changes_nothing(catalogue, auth_emulator):
    token = google_token()
    browser = signed_in_browser(token)
    refused = [
        ("alpha", "9", 1, 0.0, NOW_MS()),  # no such chapter
        ("gamma", "2", 1, 0.0, NOW_MS()),  # chapter 2 is alpha's, not gamma's
        ("no-such-series", "1", 1, 0.0, NOW_MS()),
        ("alpha", "1", -1, 0.0, NOW_MS()),
        ("alpha", "1", 1, 7.5, NOW_MS()),
        ("alpha", "1", 1, 0.0, "yesterday"),
        ("a" * 100_000, "1", 1, 0.0, NOW_MS()),
        ("alpha", "1" * 100_000, 1, 0.0, NOW_MS()),
    ]
    for args in refused:
        notes = messages(run(browser.library.record_progress(*args)))
        assert len(notes) == 1 and notes[0].startswith("error: 読んだ位置を保存できませんでした"), args[:2]
    assert rows(uid_of(token)) == []


def test_a_device_clock_far_ahead_cannot_pin_a_position(catalogue, auth_emulator):
    token = google_token()
    browser = signed_in_browser(token)
    run(browser.library.record_progress("alpha", "1", 9, 0.0, NOW_MS() + 10 * 86_400_000))
    run(browser.library.record_progress("alpha", "1", 2, 0.0, NOW_MS() + 6 * 60_000))
    assert rows(uid_of(token)) == [("alpha", 100, 2)]


def test_rows_per_user_are_capped_oldest_first(catalogue, auth_emulator, monkeypatch):
    monkeypatch.setattr(progress, "MAX_PROGRESS_ROWS", 2)
    token = google_token()
    browser = signed_in_browser(token)
    for minute, chapter in enumerate(["1", "2", "3"]):
        run(browser.library.record_progress("alpha", chapter, 0, 0.0, NOW_MS() - (10 - minute) * 60_000))
    assert sorted(rows(uid_of(token))) == [("alpha", 200, 0), ("alpha", 300, 0)]


def test_a_removed_entry_does_not_come_back_from_a_stale_device_or_a_later_sign_in(catalogue, auth_emulator):
    token = google_token()
    read_at = datetime.now(UTC) - timedelta(minutes=5)
    phone, laptop = signed_in_browser(token), signed_in_browser(token)
    run(phone.library.record_progress("alpha", "1", 3, 0.0, int(read_at.timestamp() * 1000)))
    run(laptop.library.pull())
    stale = laptop.storage()
    guest_elsewhere = Storage(history_json=read_in_browser("alpha", "1", 3, read_at))
    assert messages(run(phone.library.remove_history("alpha"))) == ["success: 閲覧履歴から削除しました"]
    assert phone.history() == [] and rows(uid_of(token)) == []
    # The laptop still holds the entry; its next sync neither pushes it back nor keeps it.
    again = signed_in_browser(token, stale)
    assert again.history() == [] and rows(uid_of(token)) == []
    # A browser that read it as a guest before the removal signs in later.
    signed_in_browser(token, guest_elsewhere)
    assert rows(uid_of(token)) == []
    # Reading it again brings it back.
    run(phone.library.record_progress("alpha", "2", 0, 0.0, NOW_MS()))
    assert rows(uid_of(token)) == [("alpha", 200, 0)]


def test_clearing_everything_syncs_too(catalogue, auth_emulator):
    token = google_token()
    phone = signed_in_browser(token)
    run(phone.library.record_progress("beta", "1", 1, 0.0, NOW_MS() - 1000))
    run(phone.library.pull())
    stale = phone.storage()
    assert messages(run(phone.library.clear_history())) == ["success: 閲覧履歴をすべて削除しました"]
    assert signed_in_browser(token, stale).history() == [] and rows(uid_of(token)) == []


def test_one_user_cannot_remove_another_s_history(catalogue, auth_emulator):
    first, second = google_token(), google_token()
    a, b = signed_in_browser(first), signed_in_browser(second)
    run(a.library.record_progress("alpha", "1", 1, 0.0, NOW_MS()))
    notes = messages(run(b.library.remove_history("alpha")))
    assert notes == ["error: 閲覧履歴から削除できませんでした この作品は閲覧履歴にありません。"]
    assert rows(uid_of(first)) == [("alpha", 100, 1)]
    for bad in ("../../etc", "x" * 100_000, None, 42):
        assert messages(run(b.library.remove_history(bad))) == ["error: 閲覧履歴から削除できませんでした この作品は見つかりませんでした。"]


def test_unknown_or_malformed_series_cannot_be_followed(catalogue, auth_emulator):
    token = google_token()
    browser = signed_in_browser(token)
    for bad in ("no-such-series", "x" * 100_000, "Alpha", None, ["alpha"]):
        assert messages(run(browser.library.set_follow(bad, True))) == ["error: この作品は見つかりませんでした"]
    assert follows(uid_of(token)) == [] and browser.library.followed == []


def test_the_follow_limit_is_a_clear_refusal_for_accounts_and_guests(catalogue, auth_emulator, monkeypatch):
    monkeypatch.setattr(repository, "MAX_FOLLOWS", 2)
    token = google_token()
    browser = signed_in_browser(token)
    run(browser.library.set_follow("alpha", True))
    run(browser.library.set_follow("beta", True))
    notes = messages(run(browser.library.set_follow("gamma", True)))
    assert notes == ["error: フォローできませんでした フォローできるのは2作品までです。"]
    assert sorted(follows(uid_of(token))) == ["alpha", "beta"] and "gamma" not in browser.library.followed
    assert messages(run(browser.library.set_follow("alpha", False))) == ["success: フォローを解除しました"]

    full = json.dumps([f"s{i}" for i in range(payloads.MAX_MERGE)])
    guest = Browser(Storage(follows_json=full))
    run(guest.sign_out())
    notes = messages(run(guest.library.set_follow("gamma", True)))
    assert notes[0].startswith("error: フォローできませんでした ログインせずにフォローできるのは500作品まで")
    assert guest.library.follows_json == full


def test_a_guest_library_past_the_account_s_follow_limit_is_merged_as_far_as_it_goes(catalogue, auth_emulator, monkeypatch):
    monkeypatch.setattr(repository, "MAX_FOLLOWS", 1)
    guest = Browser(Storage(follows_json=json.dumps(["alpha", "beta"])))
    token = google_token()
    notes = run(guest.sign_in(token))
    assert notes == ["warning: 一部のフォローを引き継げませんでした フォローできるのは1作品までです（1作品が対象外）。"]
    assert len(follows(uid_of(token))) == 1


def test_huge_browser_stores_are_refused_and_not_merged(catalogue, auth_emulator):
    huge = Storage(follows_json="[" + '"alpha",' * 200_000 + '"beta"]')
    guest = Browser(huge)
    run(guest.sign_out())
    assert messages(run(guest.library.set_follow("gamma", True))) == [
        "error: フォローできませんでした ブラウザに保存されたデータが大きすぎます"
    ]
    token = google_token()
    notes = run(guest.sign_in(token))
    assert notes == ["error: ブラウザに保存されたデータが大きすぎます このブラウザのフォローと閲覧履歴は引き継げませんでした。"]
    assert follows(uid_of(token)) == [] and guest.library.follows_json == ""


def test_changes_made_before_the_auth_state_is_known_wait_for_it(catalogue):
    browser = Browser(Storage(follows_json='["alpha"]', history_json=read_in_browser("alpha", "1", 0, datetime(2026, 1, 2, tzinfo=UTC))))
    for result in (browser.library.set_follow("beta", True), browser.library.clear_history()):
        assert messages(run(result)) == []
    assert browser.library.follows_json == '["alpha"]' and browser.history() == [("alpha", "1", 0)]
    # Nobody is signed in, the page learns: the browser's own library takes them, in order.
    assert run(browser.sign_out()) == ["success: フォローしました", "success: 閲覧履歴をすべて削除しました"]
    assert {entry.slug for entry in payloads.parse_library(browser.library.follows_json)} == {"alpha", "beta"}
    assert browser.history() == []


def test_a_visitor_not_yet_known_is_asked_to_wait_past_what_is_kept(catalogue):
    browser = Browser()
    wait = ["info: 読み込み中です 少し待ってからもう一度お試しください。"]
    assert messages(run(browser.library.set_follow("x" * 3000, True))) == wait  # too large to keep
    for index in range(MAX_DEFERRED):
        assert messages(run(browser.library.set_follow(f"s{index}", True))) == []
    assert messages(run(browser.library.set_follow("one-more", True))) == wait
    assert messages(run(browser.library.set_follow("s0", True))) == []  # the same event is kept once
    notes = run(browser.sign_out())
    assert len(notes) == MAX_DEFERRED and all("この作品は見つかりませんでした" in note for note in notes)


def test_the_title_page_shows_the_account_s_progress_once_it_arrives(catalogue, auth_emulator):
    token = google_token()
    phone = signed_in_browser(token)
    run(phone.library.record_progress("alpha", "2", 5, 0.0, NOW_MS()))
    laptop = Browser()
    laptop.root.router = RouterData(url=ReflexURL("http://localhost/manga/alpha"))
    title = laptop.root.get_substate(TitleState.get_full_name().split("."))
    run(title.load())
    assert run(title.progress) == TitleProgress()  # nobody is signed in yet
    run(laptop.sign_in(token))
    found = run(title.progress)
    # Left part-way on the phone: where, not 既読.
    assert (found.read, found.left, found.continue_label) == ([], {"2": "6/8"}, "続きを読む 第2話・6ページ目")
    assert found.left_width == {"2": "75.0%"}
    assert found.continue_url == next(row.url for row in title.chapters if row.number == "2")
    # Read to the last page on the phone: read on the laptop once it pulls.
    run(phone.library.record_progress("alpha", "2", 7, 0.0, NOW_MS()))
    run(laptop.library.pull())
    found = run(title.progress)
    assert (found.read, found.left) == (["2"], {})


def test_the_library_counts_units_after_the_furthest_read_and_updates_since_the_visitor_last_read(catalogue):
    # The catalogue's chapters were all published on 2026-01-01.
    guest = Browser(Storage(history_json=read_in_browser("alpha", "1", 0, datetime(2025, 12, 31, tzinfo=UTC)),
                            follows_json='["alpha", "beta"]'))
    run(guest.sign_out())
    run(guest.library.load())
    cards = {card.slug: card for card in guest.library.library_items}
    assert (cards["alpha"].unread, cards["alpha"].fresh, cards["alpha"].latest) == ("未読2話", True, "最新 第3話")
    assert (cards["beta"].unread, cards["beta"].fresh) == ("未読3話", False)  # never read, added at an unknown time
    assert [tab.label for tab in guest.library.library_tabs] == ["読みたい 0", "読んでる 2", "読了 0", "中断 0"]
    assert [card.slug for card in guest.library.history_items] == ["alpha"]


def _reader(browser: Browser):
    from manga_app.reader.state import ReaderState

    return browser.root.get_substate(ReaderState.get_full_name().split("."))


def _chapter_shown(member: Browser):
    """The reader's on_load for alpha's chapter 1 in `member`'s tab, after its
    manifest came (the unit catalogue publishes none): the pages went out."""
    from manga_app.read_models.title_cache import load_chapter

    reader = _reader(member)
    member.visit("/alpha-ch-1")
    pages = [{"url": f"/p{index}.avif", "saver_url": "", "width": 800, "height": 1200} for index in range(PAGES)]
    reader.view_id += 1
    reader._show_chapter(load_chapter({"slug": "alpha", "number": "1", "chapter_slug": ""}), pages)
    assert run(reader._show_pages(pages))
    return reader


def _account_pages(uid: str) -> list[tuple[str, int, int]]:
    return [(row.series_slug, row.chapter_hundredths, row.page) for row in service.history(uid)]


def test_a_chapter_opened_after_the_sign_in_reaches_the_account_on_its_first_page(catalogue, auth_emulator):
    """A reload: the reader's first report comes while it is not yet known
    who reads (for the tab's earlier view: it changes nothing), and the
    sign-in's events reach the server while it still sends the page's
    state, so they run before the chapter's on_load."""
    token = google_token()
    uid = claims_of(token)["user_id"]
    member = signed_in_browser(token)
    member.auth._suspend()  # the reload
    member.visit("/alpha-ch-1")
    assert run(_reader(member).save_progress(1, "alpha", "1", 0, 0.0, NOW_MS())) is None
    run(member.sign_in(token))
    assert service.history(uid) == []
    reader = _chapter_shown(member)
    for event in Event.from_event_type(run(reader._bookkeeping(reader.view_id))):  # record_opening
        run(member.send(event))
    assert _account_pages(uid) == [("alpha", 100, 0)]


def test_a_page_turned_before_the_opening_was_recorded_stays_the_account_s(catalogue, auth_emulator):
    """The opening is recorded in the background, when it gets the tab's
    state: after a page turn the reader made once the pages showed, which
    is newer and stays."""
    token = google_token()
    uid = claims_of(token)["user_id"]
    member = signed_in_browser(token)
    reader = _chapter_shown(member)
    time.sleep(0.01)
    turned_at = NOW_MS()  # the reader turns to page 5; the report is on its way
    time.sleep(0.01)
    opening = Event.from_event_type(run(reader._bookkeeping(reader.view_id)))
    for event in Event.from_event_type(run(reader.save_progress(reader.view_id, "alpha", "1", 4, 0.0, turned_at))):
        run(member.send(event))
    for event in opening:
        run(member.send(event))
    assert _account_pages(uid) == [("alpha", 100, 4)]
    assert member.history() == [("alpha", "1", 4)]


def test_pages_turned_before_the_chapter_s_on_load_ran_are_where_its_opening_is_recorded(catalogue, auth_emulator):
    """The page came from the server and the reader turned it before the
    chapter's on_load ran (queued after the events that came meanwhile)."""
    token = google_token()
    uid = claims_of(token)["user_id"]
    member = signed_in_browser(token)
    member.visit("/alpha-ch-1")
    for page in (1, 2):
        for event in Event.from_event_type(run(_reader(member).save_progress(1, "alpha", "1", page, 0.0, NOW_MS()))):
            run(member.send(event))
    reader = _chapter_shown(member)
    for event in Event.from_event_type(run(reader._bookkeeping(reader.view_id))):
        run(member.send(event))
    assert member.history() == [("alpha", "1", 2)]
    assert _account_pages(uid) == [("alpha", 100, 2)]


def test_a_page_turn_goes_on_to_the_account_only_when_signed_in(catalogue, auth_emulator):
    from manga_app.reader.state import ReaderState

    path = ReaderState.get_full_name().split(".")
    guest = Browser()
    run(guest.sign_out())
    # A guest's position stays in the browser: no event follows it to the account.
    assert run(guest.root.get_substate(path).save_progress(0, "alpha", "1", 3, 0.0, NOW_MS())) is None
    member = signed_in_browser(google_token())
    [follows_on] = run(member.root.get_substate(path).save_progress(0, "alpha", "1", 3, 0.0, NOW_MS()))
    assert follows_on.handler.fn.__name__ == "record_progress"
