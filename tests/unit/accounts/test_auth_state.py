"""AuthState's handlers, called as the Firebase root calls them, with real
emulator tokens: only a verified token signs anyone in, a refresh that fails
verification ends the session, a merge needs a guest and a Google account."""

from __future__ import annotations

import asyncio
import logging
import uuid

from sqlmodel import Session

from manga_app.accounts import repository
from manga_app.core.db import shared_engine
from tests.unit.accounts.emulator_accounts import anonymous_token, claims_of, google_token, with_claims
from tests.unit.accounts.signed_tokens import PROJECT, Signer
from tests.unit.accounts.visitors import Browser, commands, messages, user_of


REFUSED = ["error: ログインできませんでした もう一度ログインしてください。"]


def run(coroutine):
    return asyncio.run(coroutine)


def account(uid: str):
    with Session(shared_engine()) as session:
        return repository.get_user(session=session, uid=uid)


def test_the_client_gets_its_settings_from_the_backend_when_it_starts(catalogue):
    browser = Browser()
    assert browser.auth.client_config == {}
    browser.auth.start_client()
    assert browser.auth.client_config["projectId"] == "demo-manga-hiroba"
    assert browser.auth.client_config["emulatorHost"] == "127.0.0.1:9099"


def test_a_verified_google_sign_in_shows_the_user_and_saves_the_account(catalogue, auth_emulator):
    token = google_token(f"hana-{uuid.uuid4().hex[:6]}@example.com", name="山田 花子")
    browser = Browser()
    assert browser.auth.loading
    assert run(browser.sign_in(token)) == []
    uid = claims_of(token)["user_id"]
    assert (browser.auth.loading, browser.auth.signed_in, browser.auth.name, browser.auth._uid) == (False, True, "山田 花子", uid)
    assert account(uid).name == "山田 花子"
    assert run(browser.sign_out()) == []
    assert (browser.auth.signed_in, browser.auth._uid, browser.auth.loading) == (False, "", False)


def test_a_user_object_claiming_another_uid_is_refused(catalogue, auth_emulator):
    mine, theirs = google_token(), google_token()
    browser = Browser()
    theirs_uid = claims_of(theirs)["user_id"]
    assert run(browser.report(user_of(mine, googleId=theirs_uid), mine)) == REFUSED
    assert (browser.auth._uid, browser.auth.signed_in, browser.auth.loading) == ("", False, False)
    assert account(theirs_uid) is None and account(claims_of(mine)["user_id"]) is None


def test_expired_foreign_and_oversized_emulator_tokens_are_refused(catalogue, auth_emulator):
    token = google_token()
    user = user_of(token)
    for bad in (with_claims(token, aud="demo-another-project"), with_claims(token, exp=1), "x" * 100_000, "not a token"):
        browser = Browser()
        assert run(browser.report(user, bad)) == REFUSED, bad[:20]
        assert browser.auth._uid == "" and not browser.auth.signed_in and not browser.auth.loading


def test_with_a_real_project_only_tokens_signed_by_google_sign_in(catalogue, real_project, google_signer):
    good = google_signer.token(PROJECT, "taro")
    browser = Browser()
    assert run(browser.sign_in(good)) == [] and browser.auth._uid == "taro"
    _header, payload, _signature = good.split(".")
    forgeries = [
        Signer.create("attacker").token(PROJECT, "hanako", key_id=google_signer.key_id),  # forged signature
        f"eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{payload}.",  # unsigned, emulator style
        google_signer.token("someone-elses-project", "hanako"),
    ]
    for token in forgeries:
        other = Browser()
        assert run(other.report(user_of(token), token)) == REFUSED
        assert other.auth._uid == ""
    assert account("hanako") is None


def test_a_refreshed_token_that_fails_verification_ends_the_session(catalogue, auth_emulator):
    token = google_token()
    browser = Browser()
    run(browser.sign_in(token))
    run(browser.library.set_follow("alpha", True))
    expired = with_claims(token, exp=1)
    result = run(browser.refresh(expired))
    assert messages(result) == ["error: ログインの確認ができませんでした ログアウトしました。もう一度ログインしてください。"]
    assert ["sign_out"] in commands(result)
    assert (browser.auth._uid, browser.auth.signed_in) == ("", False)
    # Nothing of the account is left in view or in the browser.
    assert browser.library.followed == [] and browser.library.owner == ""


def test_a_good_refresh_keeps_the_session_and_a_refresh_without_one_does_nothing(catalogue, auth_emulator):
    token = google_token()
    browser = Browser()
    assert run(browser.refresh(token)) is None and not browser.auth.signed_in
    run(browser.sign_in(token))
    assert run(browser.refresh(google_token(claims_of(token)["email"]))) is None
    assert browser.auth._uid == claims_of(token)["user_id"]


def test_a_persistence_failure_is_logged_and_ends_loading(catalogue, caplog):
    browser = Browser()
    with caplog.at_level(logging.ERROR, logger="manga_app.visitor.auth_state"):
        browser.auth.on_persistence_error("FirebaseError: auth/web-storage-unsupported")
    assert "Error setting persistence: FirebaseError: auth/web-storage-unsupported" in caplog.text
    assert not browser.auth.loading and not browser.auth.signed_in


def test_a_guest_s_library_merges_into_the_google_account_it_signs_in_to(catalogue, auth_emulator):
    guest_token, google = anonymous_token(), google_token()
    guest = Browser()
    run(guest.sign_in(guest_token))
    run(guest.library.set_follow("beta", True))
    notes = messages(run(guest.auth.on_merge(guest_token, google)))
    run(guest.library.sync())
    assert notes == ["success: ゲストのライブラリを引き継ぎました"]
    assert guest.auth._uid == claims_of(google)["user_id"] and guest.library.followed == ["beta"]
    assert account(claims_of(guest_token)["user_id"]) is None


def test_a_merge_must_be_from_a_guest_into_a_google_account(catalogue, auth_emulator):
    first, second, guest_token = google_token(), google_token(), anonymous_token()
    browser = Browser()
    run(browser.sign_in(first))
    run(browser.library.set_follow("alpha", True))
    for source, target in ((first, second), (guest_token, anonymous_token()), (guest_token, with_claims(second, exp=1))):
        assert messages(run(browser.auth.on_merge(source, target))) == ["error: ライブラリを引き継げませんでした"]
    # The first account keeps its library; the second got nothing of it.
    other = Browser()
    run(other.sign_in(second))
    assert other.library.followed == []
    assert browser.auth._uid == claims_of(first)["user_id"]


def test_sign_in_errors_are_told_in_japanese(catalogue):
    browser = Browser()
    # Google unreachable: what happened, and what to do instead (a guest stays a guest).
    for code in ("auth/network-request-failed", "auth/internal-error", "auth/helper-unreachable"):
        (notice,) = messages(browser.auth.on_error(code))
        assert notice.startswith("error: Googleに接続できませんでした Googleのログイン画面を読み込めませんでした。")
        assert "「ゲストとして続ける」" in notice and "しばらくしてから" in notice
    browser.auth.is_anonymous = True
    (notice,) = messages(browser.auth.on_error("auth/internal-error"))
    assert "ゲストのままライブラリは使えます" in notice
    assert messages(browser.auth.on_error("auth/too-many-requests")) == [
        "error: ログインできませんでした しばらく時間をおいてからお試しください。"
    ]
    assert messages(browser.auth.on_error("x" * 10_000)) == ["error: ログインできませんでした もう一度お試しください。"]
