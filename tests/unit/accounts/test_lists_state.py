"""ListsState's handlers as visitors use them (real emulator tokens, a real
catalogue and database): statuses set and changed in the browser and in an
account, kept when a guest signs in, a 完結 series finished by its last
chapter with an undo, and refused input answered in Japanese."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

from reflex.istate.data import ReflexURL, RouterData
from sqlmodel import Session, select

from manga_app.accounts import repository
from manga_app.visitor.lists_state import ListsState
from manga_app.catalogue.models import Chapter, Series
from manga_app.core.db import shared_engine
from tests.unit.accounts.emulator_accounts import claims_of, google_token
from tests.unit.accounts.visitors import Browser, messages


def run(coroutine):
    return asyncio.run(coroutine)


def lists_of(browser: Browser) -> ListsState:
    return browser.root.get_substate(ListsState.get_full_name().split("."))


def statuses(uid: str) -> dict[str, str]:
    with Session(shared_engine()) as session:
        return repository.statuses(session=session, uid=uid)


def test_a_browser_picks_statuses_and_keeps_them_when_it_signs_in(catalogue, auth_emulator):
    guest = Browser()
    run(guest.sign_out())
    lists = lists_of(guest)
    assert messages(run(lists.set_status("alpha", "want"))) == ["success: 「読みたい」にしました"]
    run(guest.library.set_follow("beta", True))
    assert guest.library.statuses == {"beta": "reading", "alpha": "want"}
    assert messages(run(lists.set_status("beta", "paused"))) == ["success: 「中断」にしました"]
    token = google_token()
    run(guest.sign_in(token))
    assert statuses(claims_of(token)["user_id"]) == {"beta": "paused", "alpha": "want"}
    assert guest.library.statuses == {"beta": "paused", "alpha": "want"}


def test_unknown_statuses_and_series_get_a_japanese_notice_and_change_nothing(catalogue, auth_emulator):
    token = google_token()
    browser = Browser()
    run(browser.sign_in(token))
    lists = lists_of(browser)
    run(lists.set_status("alpha", "want"))
    for bad in ("done", "", "読了", None, 3, {"x": 1}):
        notes = messages(run(lists.set_status("alpha", bad)))
        assert notes == ["error: 状態を変更できませんでした 選べる状態は「読みたい」「読んでる」「読了」「中断」です。"], bad
    for slug in ("no-such-series", "../x", None):
        assert messages(run(lists.set_status(slug, "want"))) == ["error: 状態を変更できませんでした この作品は見つかりませんでした"]
    assert statuses(claims_of(token)["user_id"]) == {"alpha": "want"}


def test_the_last_chapter_of_a_completed_series_finishes_it_with_an_undo(catalogue, auth_emulator):
    with Session(shared_engine()) as session:
        series = session.exec(select(Series).where(Series.slug == "alpha")).one()
        series.status = "completed"
        session.add(series)
        session.commit()
    token = google_token()
    uid = claims_of(token)["user_id"]
    browser = Browser()
    run(browser.sign_in(token))
    lists = lists_of(browser)
    run(browser.library.set_follow("alpha", True))
    run(lists.check_finished("alpha", "2"))  # not the last chapter
    assert statuses(uid) == {"alpha": "reading"} and lists.finished_slug == ""
    run(lists.check_finished("alpha", "3"))
    assert statuses(uid) == {"alpha": "finished"}
    assert (lists.finished_slug, lists.finished_title) == ("alpha", "alphaの題")
    assert messages(run(lists.undo_finished())) == ["success: 「読んでる」に戻しました"]
    assert statuses(uid) == {"alpha": "reading"} and lists.finished_slug == ""
    run(lists.check_finished("alpha", "3"))  # undone in this tab: not moved again
    assert statuses(uid) == {"alpha": "reading"}
    # An ongoing series is not finished by its latest chapter.
    run(browser.library.set_follow("gamma", True))
    run(lists.check_finished("gamma", "1"))
    assert statuses(uid)["gamma"] == "reading"


def _following_gamma_when_its_chapter_2_comes(token: str, fingerprint: str) -> Browser:
    """A reader signed in with `token`, following gamma, which then gains a chapter."""
    browser = Browser()
    run(browser.sign_in(token))
    run(browser.library.set_follow("gamma", True))
    with Session(shared_engine()) as session:
        series = session.exec(select(Series).where(Series.slug == "gamma")).one()
        session.add(Chapter(series_id=series.id, number_hundredths=200, published_at=datetime.now(UTC) + timedelta(seconds=1),
                            page_count=1, source_path="y", fingerprint=fingerprint, created_at=datetime.now(UTC)))
        session.commit()
    return browser


def test_opening_the_title_page_sees_the_update(catalogue, auth_emulator):
    browser = _following_gamma_when_its_chapter_2_comes(google_token(), "gamma200")
    browser.root.router = RouterData(url=ReflexURL("http://localhost/library"))
    run(browser.library.load())
    assert [card.fresh for card in browser.library.library_items] == [True]
    browser.root.router = RouterData(url=ReflexURL("http://localhost/manga/gamma"))
    time.sleep(1.1)  # opened after the unit's publication
    run(lists_of(browser).opened())
    browser.root.router = RouterData(url=ReflexURL("http://localhost/library"))
    run(browser.library.load())
    assert [card.fresh for card in browser.library.library_items] == [False]


def test_a_title_page_opened_before_the_reader_is_known_sees_the_update_once_they_are(catalogue, auth_emulator):
    """A reload: the title page's on_load comes before the sign-in, and the
    reader has gone back to /library by the time it arrives."""
    token = google_token()
    browser = _following_gamma_when_its_chapter_2_comes(token, "gamma200-kept")
    time.sleep(1.1)  # opened after the unit's publication
    browser.auth._suspend()  # the page reloaded: not yet known who this is
    browser.visit("/manga/gamma")
    assert messages(run(lists_of(browser).opened())) == []
    browser.visit("/library")
    run(browser.sign_in(token))
    run(browser.library.load())
    assert [(card.slug, card.fresh) for card in browser.library.library_items] == [("gamma", False)]


def test_a_follow_sent_again_changes_nothing_and_keeps_the_status(catalogue, auth_emulator):
    """The browser sends again what it could not see answered (a connection
    lost in flight): a follow, or its undoing, sent twice is done once, and a
    second follow does not put the series back to 読んでいる."""
    token = google_token()
    uid = claims_of(token)["user_id"]
    browser, guest = Browser(), Browser()
    run(browser.sign_in(token))
    run(guest.sign_out())
    for visitor, stored in ((browser, lambda: statuses(uid)), (guest, lambda: guest.library.statuses)):
        run(visitor.library.set_follow("alpha", True))
        run(lists_of(visitor).set_status("alpha", "paused"))
        assert messages(run(visitor.library.set_follow("alpha", True))) == ["success: フォローしました"]
        assert stored() == {"alpha": "paused"} and visitor.library.followed == ["alpha"]
        for _ in range(2):
            assert messages(run(visitor.library.set_follow("alpha", False))) == ["success: フォローを解除しました"]
            assert stored() == {} and visitor.library.followed == []
        assert messages(run(visitor.library.set_follow("alpha", "yes"))) == ["error: この作品は見つかりませんでした"]
        assert stored() == {}
