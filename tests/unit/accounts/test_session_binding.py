"""A signed-in session is only as good as its ID token: it belongs to the
connection that proved it, ends when the token expires, and sign-in asks the
real Auth emulator whether the token was revoked or the account deleted."""

from __future__ import annotations

import asyncio
import time

from firebase_admin import auth as admin_auth
from sqlmodel import Session

from manga_app.accounts import repository
from manga_app.accounts.settings import get_firebase_config
from manga_app.accounts.verify import admin_app
from manga_app.console.jobs_state import JobsState
from manga_app.core.db import shared_engine
from manga_app.heads.state import HeadState
from manga_app.visitor.session_guard import hold_session
from tests.unit.accounts.emulator_accounts import claims_of, google_token
from tests.unit.accounts.visitors import Browser, messages

REFUSED = ["error: ログインできませんでした もう一度ログインしてください。"]


def run(coroutine):
    return asyncio.run(coroutine)


def follows(uid: str) -> list[str]:
    with Session(shared_engine()) as session:
        return repository.followed_slugs(session=session, uid=uid)


def signed_in_on(sid: str, token: str) -> Browser:
    browser = Browser()
    browser.connect(sid)
    assert run(browser.sign_in(token)) == []
    return browser


def test_a_session_replayed_on_another_connection_is_anonymous_with_nothing_of_the_account(catalogue, auth_emulator):
    token = google_token()
    uid = claims_of(token)["user_id"]
    victim = signed_in_on("sid-victim", token)
    run(victim.library.set_follow("alpha", True))
    assert follows(uid) == ["alpha"] and victim.library.followed == ["alpha"]
    # The same state tree (the client token), seen from another socket.
    victim.connect("sid-attacker")
    assert run(hold_session(victim.root)) is False
    assert (victim.auth._uid, victim.auth.google_id, victim.auth.email, victim.auth.signed_in) == ("", "", "", False)
    assert victim.auth.loading and victim.library.followed == []
    # Its events wait until it is known who this is...
    assert messages(run(victim.library.set_follow("beta", True))) == []
    run(victim.library.clear_history())
    assert follows(uid) == ["alpha"]
    # ...and are never handed to the account's own tab, signing in again on its connection.
    victim.connect("sid-victim")
    assert run(victim.sign_in(token)) == []
    assert follows(uid) == ["alpha"] and victim.library.followed == ["alpha"]


def test_the_same_tab_on_a_new_connection_signs_in_again_with_its_token(catalogue, auth_emulator):
    token = google_token()
    browser = signed_in_on("sid-1", token)
    browser.connect("sid-2")
    run(hold_session(browser.root))
    assert run(browser.sign_in(token)) == []
    assert run(hold_session(browser.root)) is True and browser.auth._uid == claims_of(token)["user_id"]


def test_after_the_token_expires_account_actions_wait_for_a_fresh_token(catalogue, auth_emulator):
    token = google_token()
    uid = claims_of(token)["user_id"]
    browser = signed_in_on("sid-1", token)
    assert browser.auth._expires == claims_of(token)["exp"]
    browser.auth._expires = time.time() - 1  # the hour has passed
    assert run(hold_session(browser.root)) is False
    assert messages(run(browser.library.set_follow("alpha", True))) == []
    assert follows(uid) == []
    # The fresh token comes: the follow tapped meanwhile is the account's.
    assert run(browser.sign_in(google_token(claims_of(token)["email"]))) == ["success: フォローしました"]
    assert follows(uid) == ["alpha"]


def test_sign_in_with_a_revoked_token_or_of_a_deleted_account_is_refused(catalogue, auth_emulator):
    app = admin_app(get_firebase_config())
    revoked = google_token()
    time.sleep(1.1)  # revocation counts whole seconds after the token's issue
    admin_auth.revoke_refresh_tokens(claims_of(revoked)["user_id"], app=app)
    deleted = google_token()
    admin_auth.delete_user(claims_of(deleted)["user_id"], app=app)
    for token in (revoked, deleted):
        browser = Browser()
        assert run(browser.sign_in(token)) == REFUSED
        assert browser.auth._uid == "" and not browser.auth.signed_in


def test_sign_out_ends_the_server_session(catalogue, auth_emulator):
    browser = signed_in_on("sid-1", google_token())
    run(browser.sign_out())
    assert (browser.auth._uid, browser.auth._sid, browser.auth._expires) == ("", "", 0.0)
    assert run(hold_session(browser.root)) is True and browser.auth._uid == ""


def test_a_console_page_asked_for_during_the_blink_loads_once_the_operator_is_proven(catalogue, auth_emulator, configure):
    """The console showed from the tab's earlier state and asked for its page
    while the session was suspended (a reconnect): the page loads once the
    fresh token arrives, not never."""
    email = f"operator-{time.time_ns()}@example.com"
    configure(ADMIN_EMAILS=email)
    token = google_token(email)
    browser = signed_in_on("sid-1", token)
    jobs = browser.root.get_substate(JobsState.get_full_name().split("."))
    head = browser.root.get_substate(HeadState.get_full_name().split("."))
    browser.connect("sid-2")  # the tab reconnected
    assert run(hold_session(browser.root)) is False
    assert not run(jobs.load()) and head.title != "Jobs · Console"
    assert run(browser.sign_in(token)) == []
    assert head.title == "Jobs · Console"
