"""NotificationState's handlers as a tab runs them, with real emulator
tokens, a real catalogue and database: the header count follows the
library, an empty library costs no query, a pushed publish only queries for
a reader who follows the series, viewing the list marks it seen, and a
malformed push is refused in Japanese."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.accounts import notifications
from manga_app.visitor.notification_state import NotificationState
from manga_app.catalogue.models import Chapter, Series
from manga_app.core.db import shared_engine
from tests.unit.accounts.emulator_accounts import claims_of, google_token
from tests.unit.accounts.visitors import Browser, messages


def run(coroutine):
    return asyncio.run(coroutine)


@contextlib.contextmanager
def counted_queries():
    """Every statement the shared engine runs meanwhile."""
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        seen.append(statement)

    sa.event.listen(shared_engine(), "before_cursor_execute", count)
    try:
        yield seen
    finally:
        sa.event.remove(shared_engine(), "before_cursor_execute", count)


def notifications_of(browser: Browser) -> NotificationState:
    return browser.root.get_substate(NotificationState.get_full_name().split("."))


def publish_now(slug: str, hundredths: int) -> None:
    with Session(shared_engine()) as session:
        series = session.exec(select(Series).where(Series.slug == slug)).one()
        session.add(Chapter(series_id=series.id, number_hundredths=hundredths, title="", slug="",
                            published_at=datetime.now(UTC), page_count=1, source_path="x", fingerprint=f"n{hundredths}"))
        session.commit()


def test_an_empty_library_costs_no_query_and_a_push_for_another_series_none_either(catalogue, auth_emulator):
    browser = Browser()
    run(browser.sign_in(google_token()))
    state = notifications_of(browser)
    assert state.count == 0 and state.badge == ""
    with counted_queries() as seen:
        run(state._follow(browser.auth._uid, []))
        assert run(state.published(["alpha"])) is None
    assert seen == []
    run(browser.library.set_follow("beta", True))
    with counted_queries() as seen:
        assert run(state.published(["alpha"])) is None  # the reader follows beta only
    assert seen == []


def test_a_push_for_a_followed_series_counts_it_and_says_so_and_the_list_marks_it_seen(catalogue, auth_emulator):
    token = google_token()
    uid = claims_of(token)["user_id"]
    browser = Browser()
    run(browser.sign_in(token))
    run(browser.library.set_follow("alpha", True))
    state = notifications_of(browser)
    assert state.count == 0
    publish_now("alpha", 400)
    told = messages(run(state.published(["alpha", "gamma"])))
    assert told == ["info: 新しい話が公開されました 「alphaの題」に新しい話があります。通知から読めます。"]
    assert (state.count, state.badge) == (1, "1")
    run(state.load())
    assert [(item.title, item.unit, item.read_url, item.seen) for item in state.items] == [
        ("alphaの題", "第4話", "/alpha-ch-4", False)]
    assert state.count == 0
    with Session(shared_engine()) as session:
        assert notifications.unseen_count(session=session, uid=uid) == 0
    run(state._follow(uid, ["alpha"]))  # the next page view
    assert state.count == 0


def test_a_malformed_push_is_refused_in_japanese(catalogue, auth_emulator):
    browser = Browser()
    run(browser.sign_in(google_token()))
    state = notifications_of(browser)
    for payload in ("alpha", [1, 2], ["alpha"] * 1001, None, {"slug": "alpha"}):
        assert messages(run(state.published(payload))) == ["error: 通知を受け取れませんでした お知らせの形式が正しくありません。"]
    assert state.count == 0


def test_signed_out_nothing_of_the_account_stays(catalogue, auth_emulator):
    browser = Browser()
    run(browser.sign_in(google_token()))
    run(browser.library.set_follow("alpha", True))
    publish_now("alpha", 500)
    state = notifications_of(browser)
    run(browser.library.sync())
    assert state.count == 1
    run(browser.sign_out())
    assert (state.count, state._uid, state._followed) == (0, "", [])
