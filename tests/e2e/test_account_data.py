"""アカウントとデータ: a signed-in reader downloads everything the site keeps
about them and deletes the account, in Chromium against the real Auth
emulator: the file holds their follow and reading, the rows go, the
sign-in account goes from the emulator, and the page says what was deleted."""

from __future__ import annotations

import json
import uuid

import httpx
from playwright.sync_api import expect

from manga_app.accounts.settings import DEFAULT_EMULATOR_HOST, DEFAULT_PROJECT_ID
from manga_app.core.routes import ACCOUNT, manga_url

from .test_accounts import (  # noqa: F401
    _db, continue_as_guest_following, device, header_menu, open_page, series, sign_in_with_google, signed_out,
)


def emulator_has(email: str) -> bool:
    response = httpx.post(
        f"http://{DEFAULT_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/{DEFAULT_PROJECT_ID}/accounts:lookup",
        headers={"Authorization": "Bearer owner"}, json={"email": [email]}, timeout=10)
    return bool(response.json().get("users"))


def rows_of(server_env, email: str) -> dict[str, int]:
    with _db(server_env) as db:
        uid = db.execute("select uid from user_account where email = ?", (email,)).fetchone()
        if uid is None:
            return {}
        return {table: db.execute(f"select count(*) from {table} where uid = ?", uid).fetchone()[0]
                for table in ("follow", "reading_progress", "opds_key")} | {"user_account": 1}


def test_a_reader_downloads_their_data_then_deletes_the_account(base_url, server_env, device, page, series, tmp_path):
    email, name = f"leaver-{uuid.uuid4().hex[:6]}@example.com", "退会 花子"
    slug = series[0]["slug"]
    open_page(page, base_url + manga_url(slug))
    signed_out(page)
    header_menu(page)
    sign_in_with_google(page, email=email, name=name)
    expect(page.get_by_test_id("account-name")).to_have_text(name)
    follow = page.locator(".title-actions").get_by_test_id("follow-button")
    follow.click()
    expect(follow).to_have_text("フォロー中")

    # The account menu leads to the page.
    header_menu(page)
    page.get_by_test_id("menu-account").click()
    expect(page).to_have_url(base_url + ACCOUNT)
    expect(page.get_by_role("heading", level=1)).to_have_text("アカウントとデータ")

    with page.expect_download() as download:
        page.get_by_test_id("download-data").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["account"]["email"] == email
    assert [row["series_slug"] for row in data["tables"]["follow"]] == [slug]
    assert rows_of(server_env, email)["follow"] == 1 and emulator_has(email)

    page.get_by_test_id("delete-account").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    page.get_by_test_id("delete-account-confirm").click()
    deleted = page.get_by_test_id("account-deleted")
    expect(deleted).to_contain_text("フォロー: 1件")
    expect(deleted).to_contain_text("プロフィール（名前・メールアドレス）: 1件")
    expect(deleted).to_contain_text("ログイン情報")
    signed_out(page)
    assert rows_of(server_env, email) == {}
    assert not emulator_has(email)


def test_a_visitor_who_is_not_signed_in_is_told_what_is_kept_and_offered_sign_in(base_url, device, page):
    open_page(page, base_url + ACCOUNT)
    signed_out(page)
    expect(page.get_by_text("サーバーには保存されません")).to_be_visible()
    expect(page.get_by_test_id("download-data")).to_have_count(0)


def emulator_has_uid(uid: str) -> bool:
    response = httpx.post(
        f"http://{DEFAULT_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/{DEFAULT_PROJECT_ID}/accounts:lookup",
        headers={"Authorization": "Bearer owner"}, json={"localId": [uid]}, timeout=10)
    return bool(response.json().get("users"))


FIREBASE_UID = """() => Object.keys(localStorage)
  .filter((key) => key.startsWith("firebase:authUser:"))
  .map((key) => JSON.parse(localStorage.getItem(key)).uid)"""


def firebase_uid(page) -> str:
    """The signed-in account's uid, as the browser's Firebase SDK keeps it (local persistence)."""
    uids = page.evaluate(FIREBASE_UID)
    assert len(uids) == 1, uids
    return uids[0]


def test_a_guest_downloads_their_data_then_deletes_the_account(base_url, server_env, device, page, series, tmp_path):
    item = series[1]
    continue_as_guest_following(page, base_url, item)
    header_menu(page)
    page.get_by_test_id("menu-account").click()
    expect(page).to_have_url(base_url + ACCOUNT)

    with page.expect_download() as download:
        page.get_by_test_id("download-data").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    uid = firebase_uid(page)
    assert data["account"]["is_anonymous"] in (True, 1)
    assert [row["series_slug"] for row in data["tables"]["follow"]] == [item["slug"]]
    with _db(server_env) as db:
        assert db.execute("select count(*) from follow where uid = ?", (uid,)).fetchone()[0] == 1
    assert emulator_has_uid(uid)

    page.get_by_test_id("delete-account").click()
    page.get_by_test_id("delete-account-confirm").click()
    deleted = page.get_by_test_id("account-deleted")
    expect(deleted).to_contain_text("フォロー: 1件")
    expect(deleted).to_contain_text("ログイン情報")
    signed_out(page)
    with _db(server_env) as db:
        assert db.execute("select count(*) from follow where uid = ?", (uid,)).fetchone()[0] == 0
        assert db.execute("select count(*) from user_account where uid = ?", (uid,)).fetchone()[0] == 0
    assert not emulator_has_uid(uid)
