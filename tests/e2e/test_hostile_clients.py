"""Hostile clients against the real server (served as `make run` serves it),
with real socket.io clients speaking Reflex's protocol and tokens from the
real Auth emulator. Each case asserts the refusal and that the victim's
account is unchanged."""

from __future__ import annotations

import io
import json
import re
import socket
import sqlite3
import subprocess
import threading
import time
import uuid
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import socketio
import websocket
from PIL import Image
from firebase_admin import auth as admin_auth

from manga_app.accounts.settings import get_firebase_config
from manga_app.accounts.verify import admin_app
from manga_app.core.config import Settings
from manga_app.platform.http_protocol import HEADER_TIMEOUT
from manga_app.uploads.staging import staged_dir
from tests.unit.catalogue.builders import distinct_pages, write_cbz
from tests.unit.accounts.emulator_accounts import anonymous_token, claims_of, google_token, with_claims

from .conftest import PORT, PRODUCTION_HOST, WEB_DIR
from .hostile_client import (
    ACCOUNT_DATA, AUTH, CONSOLE_AUDIT, CONSOLE_JOBS, CONSOLE_OVERVIEW, CONSOLE_SERIES, CONSOLE_UPLOAD, END_CARD, FEED_KEY, LIBRARY, LISTS,
    NOTIFICATION, OPDS_KEY, OPERATOR, READER, READING, Tab, account_exists, chapter_likes, feed_keys, follows,
    seen_mark, statuses,
)

ROOT = Path(__file__).resolve().parents[2]
REFUSED = "ログインできませんでした"
TOO_MANY = "操作が多すぎます"


@pytest.fixture(scope="module")
def slugs(base_url) -> list[str]:
    return [item["slug"] for item in httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"]]


@pytest.fixture
def db(server_env) -> str:
    return server_env["REFLEX_DB_URL"]


def user_of(token: str) -> dict:
    claims = claims_of(token)
    return {"googleId": claims["user_id"], "email": claims.get("email", ""), "name": claims.get("name", ""),
            "avatar": "", "isAnonymous": claims["firebase"]["sign_in_provider"] == "anonymous"}


def sign_in(tab: Tab, token: str, user: dict | None = None) -> None:
    tab.send(f"{AUTH}.on_auth_change", user=user or user_of(token), token=token)
    tab.send(f"{LIBRARY}.sync", _first=None, _second=None)


def signed_in_as(tab: Tab, uid: str) -> bool:
    return tab.delta(AUTH).get("google_id_rx_state_") == uid and tab.delta(AUTH).get("loading_rx_state_") is False


@pytest.fixture
def victim(base_url, auth_emulator, slugs, db) -> Iterator[tuple[Tab, str, str]]:
    """A signed-in tab that follows one series: (tab, ID token, uid)."""
    token = google_token()
    uid = claims_of(token)["user_id"]
    tab = Tab(base_url)
    tab.hydrate()
    sign_in(tab, token)
    tab.wait_for(lambda: signed_in_as(tab, uid))
    tab.send(f"{LIBRARY}.set_follow", slug=slugs[0], following=True)
    tab.wait_for(lambda: follows(db, uid) == [slugs[0]])
    yield tab, token, uid
    if tab.client.connected:
        tab.close()


def nothing_of(tab: Tab, uid: str, follows_of: tuple[str, ...] = ()) -> bool:
    """The tab was sent no identity of `uid` and none of its follows (a
    guest's own follows, kept in its browser, may be there)."""
    auth, library = tab.delta(AUTH), tab.delta(LIBRARY)
    return (auth.get("google_id_rx_state_") in ("", None) and auth.get("email_rx_state_") in ("", None)
            and uid not in str(auth) and not set(library.get("followed_rx_state_") or ()) & set(follows_of))


# --- tokens ------------------------------------------------------------------


def test_forged_expired_and_wrong_project_tokens_sign_in_nobody(base_url, auth_emulator, db):
    real = anonymous_token()
    now = int(time.time())
    made_up = "forged-" + str(now)
    forgeries = {
        # alg none with a uid no account has (in emulator mode every token is alg none;
        # the public configuration refuses emulator mode, see the test below)
        "alg-none": with_claims(real, sub=made_up, user_id=made_up),
        "expired": with_claims(real, exp=now - 3600, iat=now - 7200),
        "wrong-project": with_claims(real, aud="demo-other-site", iss="https://securetoken.google.com/demo-other-site"),
    }
    for name, token in forgeries.items():
        tab = Tab(base_url)
        tab.hydrate()
        sign_in(tab, token, user={**user_of(real), "googleId": claims_of(token)["user_id"]})
        tab.wait_for(lambda: any(REFUSED in notice for notice in tab.notices()))
        assert nothing_of(tab, claims_of(token)["user_id"]), name
        tab.close()
    assert not account_exists(db, made_up)


def test_a_revoked_token_and_a_deleted_account_are_refused_at_sign_in(base_url, victim, db, slugs):
    _tab, token, uid = victim
    app = admin_app(get_firebase_config())
    time.sleep(1.1)  # revocation counts whole seconds after the token's issue
    admin_auth.revoke_refresh_tokens(uid, app=app)
    deleted = google_token()
    admin_auth.delete_user(claims_of(deleted)["user_id"], app=app)
    for used in (token, deleted):
        tab = Tab(base_url)
        tab.hydrate()
        sign_in(tab, used)
        tab.wait_for(lambda: any(REFUSED in notice for notice in tab.notices()))
        tab.send(f"{LIBRARY}.set_follow", slug=slugs[1], following=True)
        time.sleep(0.5)
        assert nothing_of(tab, claims_of(used)["user_id"], (slugs[0],))
        tab.close()
    assert follows(db, uid) == [slugs[0]]


def test_another_uid_in_the_event_arguments_is_refused(base_url, victim, db, slugs):
    _tab, _token, uid = victim
    own = google_token()
    tab = Tab(base_url)
    tab.hydrate()
    sign_in(tab, own, user={**user_of(own), "googleId": uid})
    tab.wait_for(lambda: any(REFUSED in notice for notice in tab.notices()))
    tab.send(f"{LIBRARY}.set_follow", slug=slugs[1], following=True)
    time.sleep(0.5)
    assert nothing_of(tab, uid, (slugs[0],))
    assert follows(db, uid) == [slugs[0]]


def test_public_configuration_in_emulator_mode_refuses_to_start(server_env):
    env = {**server_env, "PORT": "1", "UNSAFE_ALLOW_AUTH_EMULATOR": "0", "REFLEX_WEB_WORKDIR": WEB_DIR}
    done = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.serve", "--port", "1"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "PRODUCTION_HOST=manga.test" in done.stderr and "UNSAFE_ALLOW_AUTH_EMULATOR=1" in done.stderr


# --- the operator's console ----------------------------------------------------


def _uploads_of(data_dir: str) -> list[tuple[str, int]]:
    """Every file under DATA_DIR/uploads (incoming, staged, batches), with its size."""
    root = Path(data_dir) / "uploads"
    return sorted((path.relative_to(root).as_posix(), path.stat().st_size) for path in root.rglob("*") if path.is_file())


def _stage_for(data_dir: str, uid: str) -> None:
    """A chapter in `uid`'s own staging folder (named as uploads/staging.py names it): a console
    event that forgot the role check would plan, place, drop or import it."""
    folder = staged_dir(Settings(data_dir=Path(data_dir)), uid)
    write_cbz(folder / "乗っ取り 第1話.cbz", {"1.png": distinct_pages(1, seed=91)[0]})


def _console_snapshot(db: str, slug: str) -> tuple:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as connection:
        series = connection.execute("select title, summary, status from series where slug = ?", (slug,)).fetchone()
        units = connection.execute("select count(*) from chapter c join series s on s.id = c.series_id where s.slug = ?",
                                   (slug,)).fetchone()
        audit = connection.execute("select count(*) from audit_log").fetchone()
        locks = connection.execute("select count(*) from metadata_lock").fetchone()
        jobs = connection.execute("select count(*), sum(cancel_requested) from import_job").fetchone()
        libraries = connection.execute("select count(*), sum(scan_every_hours) from library_folder").fetchone()
    return series, units, audit, locks, jobs, libraries


def _try_the_console(tab: Tab, slug: str) -> dict:
    """Every console event a hostile client could send, then the state it got back."""
    tab.send(f"{OPERATOR}.follow")
    tab.send(f"{CONSOLE_OVERVIEW}.load")
    tab.send(f"{CONSOLE_OVERVIEW}.filter_series", form={"q": ""})
    tab.send(f"{CONSOLE_AUDIT}.load")
    tab.send(f"{CONSOLE_SERIES}.load", path=f"/admin/series/{slug}")
    tab.send(f"{CONSOLE_SERIES}.save", form={"title": "乗っ取り", "summary": "乗っ取り", "status": "completed",
                                            "direction": "rtl", "age_rating": ""})
    tab.send(f"{CONSOLE_SERIES}.save_unit_title", form={"unit": "100", "title": "乗っ取り"})
    tab.send(f"{CONSOLE_SERIES}.unlock", field="summary", unit="")
    tab.send(f"{CONSOLE_SERIES}.library_edit", form={"command": "remove", "units": ""})
    tab.send(f"{CONSOLE_SERIES}.apply_edit")
    tab.send(f"{CONSOLE_JOBS}.load")
    tab.send(f"{CONSOLE_JOBS}.watch")
    tab.send(f"{CONSOLE_JOBS}.add_library", form={"path": str(ROOT / "tests")})
    tab.send(f"{CONSOLE_JOBS}.scan", library="1")
    tab.send(f"{CONSOLE_JOBS}.set_scan_interval", library="1", interval="hourly")
    tab.send(f"{CONSOLE_JOBS}.remove_library", library="1")
    tab.send(f"{CONSOLE_JOBS}.cancel", job="1")
    tab.send(f"{CONSOLE_JOBS}.show_files", job="1")
    tab.send(f"{CONSOLE_UPLOAD}.load")
    tab.send(f"{CONSOLE_UPLOAD}.uploaded", succeeded=1, failed=1)
    tab.send(f"{CONSOLE_UPLOAD}.start_edit", path="乗っ取り 第1話.cbz")
    tab.send(f"{CONSOLE_UPLOAD}.save_placement", form={"series": "乗っ取り", "kind": "chapter", "number": "7"})
    tab.send(f"{CONSOLE_UPLOAD}.cancel_edit")
    tab.send(f"{CONSOLE_UPLOAD}.drop", path="乗っ取り 第1話.cbz")
    tab.send(f"{CONSOLE_UPLOAD}.drop", path="../../batches")
    tab.send(f"{CONSOLE_UPLOAD}.confirm_all")
    tab.settled()
    return tab


def _shown_nothing(tab: Tab) -> bool:
    """No update the tab ever got (its hydration too) named an operator or
    carried anything of the console."""
    for update in tab.updates:
        delta = update.get("delta") or {}
        seen = {**delta.get(OPERATOR, {}), **delta.get(CONSOLE_OVERVIEW, {}), **delta.get(CONSOLE_AUDIT, {}),
                **delta.get(CONSOLE_SERIES, {}), **delta.get(CONSOLE_JOBS, {}), **delta.get(CONSOLE_UPLOAD, {})}
        if (seen.get("operator_rx_state_") is True or seen.get("operator_email_rx_state_") or seen.get("tiles_rx_state_")
                or seen.get("series_rx_state_") or seen.get("entries_rx_state_") or seen.get("form_rx_state_")
                or seen.get("preview_rx_state_") or seen.get("units_rx_state_") or seen.get("heading_rx_state_")
                or seen.get("jobs_rx_state_") or seen.get("libraries_rx_state_") or seen.get("files_rx_state_")
                or seen.get("selected_rx_state_") or seen.get("message_rx_state_") or seen.get("error_rx_state_")
                or seen.get("plan_rx_state_") or seen.get("counts_rx_state_") or seen.get("loaded_rx_state_")
                or seen.get("editing_rx_state_") or seen.get("placement_rx_state_") or seen.get("blocked_rx_state_")):
            return False
    return True


def test_console_events_from_a_reader_a_guest_and_a_visitor_are_refused_and_change_nothing(base_url, auth_emulator, db,
                                                                                          server_env, slugs):
    """Every event of every console page (overview, series editor, audit,
    jobs, upload), from a signed-in reader, a guest and a visitor: refused,
    nothing sent back, nothing changed in the database or under uploads (each
    signed-in tab has a chapter in a staging folder of its own uid, which an
    upload event without its role check would plan, place, drop or import)."""
    slug = slugs[-1]
    tokens = (google_token(), anonymous_token(), None)
    for token in tokens[:2]:
        _stage_for(server_env["DATA_DIR"], claims_of(token)["user_id"])
    before = _console_snapshot(db, slug), _uploads_of(server_env["DATA_DIR"])
    for token in tokens:
        tab = Tab(base_url)
        tab.hydrate()
        if token is not None:
            sign_in(tab, token)
            tab.wait_for(lambda: signed_in_as(tab, claims_of(token)["user_id"]))
        assert _shown_nothing(_try_the_console(tab, slug))
        tab.close()
    assert (_console_snapshot(db, slug), _uploads_of(server_env["DATA_DIR"])) == before


def test_an_operators_console_stays_with_its_connection(base_url, auth_emulator, db, slugs):
    """An operator by the admin custom claim gets the console; their client
    token replayed on another connection gets none of it."""
    email = f"claimed-{uuid.uuid4().hex[:8]}@example.com"
    uid = claims_of(google_token(email))["user_id"]
    admin_auth.set_custom_user_claims(uid, {"admin": True}, app=admin_app(get_firebase_config()))
    token = google_token(email)
    tab = Tab(base_url)
    tab.hydrate()
    sign_in(tab, token)
    tab.wait_for(lambda: signed_in_as(tab, uid))
    tab.send(f"{OPERATOR}.follow")
    tab.send(f"{CONSOLE_SERIES}.load", path=f"/admin/series/{slugs[-1]}")
    tab.wait_for(lambda: tab.delta(CONSOLE_SERIES).get("form_rx_state_"))
    assert tab.delta(OPERATOR)["operator_rx_state_"] is True
    tab.close()
    before = _console_snapshot(db, slugs[-1])
    replay = Tab(base_url, token=tab.token)
    replay.hydrate()
    assert _shown_nothing(_try_the_console(replay, slugs[-1]))
    assert _console_snapshot(db, slugs[-1]) == before
    replay.close()


# --- sessions ----------------------------------------------------------------


def test_a_client_token_replayed_after_disconnect_is_anonymous_with_nothing_of_the_account(base_url, victim, db, slugs):
    tab, _token, uid = victim
    tab.close()
    replay = Tab(base_url, token=tab.token)
    replay.hydrate()
    assert nothing_of(replay, uid, (slugs[0],)) and replay.delta(AUTH)["loading_rx_state_"] is True
    replay.send(f"{LIBRARY}.set_follow", slug=slugs[1], following=True)
    replay.send(f"{LIBRARY}.clear_history")
    replay.send(f"{LIBRARY}.load")
    replay.settled()
    assert nothing_of(replay, uid, (slugs[0],))
    assert follows(db, uid) == [slugs[0]]
    # Kept until it is known who this is: nobody, and they are a guest's.
    replay.known_as_nobody()
    replay.wait_for(lambda: slugs[1] in replay.delta(LIBRARY).get("follows_json_rx_state_", ""))
    assert nothing_of(replay, uid, (slugs[0],))
    assert follows(db, uid) == [slugs[0]]
    replay.close()


def test_a_replayed_tab_can_neither_download_nor_delete_the_account(base_url, victim, db, slugs):
    tab, _token, uid = victim
    tab.close()
    replay = Tab(base_url, token=tab.token)
    replay.hydrate()
    replay.send(f"{ACCOUNT_DATA}.download")
    replay.send(f"{ACCOUNT_DATA}.delete_account")
    replay.wait_for(lambda: sum("ログインしてください" in notice for notice in replay.notices()) == 2)
    replay.settled()
    assert uid not in json.dumps(replay.updates)  # no export reached the tab
    assert account_exists(db, uid) and follows(db, uid) == [slugs[0]]
    replay.close()


def test_status_events_from_a_socket_that_is_not_the_accounts_are_refused(base_url, victim, db, slugs):
    tab, _token, uid = victim
    tab.send(f"{LISTS}.set_status", slug=slugs[0], status="paused")
    tab.wait_for(lambda: statuses(db, uid) == {slugs[0]: "paused"})
    tab.close()
    replay = Tab(base_url, token=tab.token)
    replay.hydrate()
    replay.send(f"{LISTS}.set_status", slug=slugs[0], status="finished")
    replay.send(f"{LISTS}.set_status", slug=slugs[1], status="want")
    replay.send(f"{LISTS}.undo_finished")
    replay.send(f"{LISTS}.check_finished", slug=slugs[0], chapter="1")
    replay.settled()
    assert nothing_of(replay, uid, (slugs[0],)) and not (replay.delta(LIBRARY).get("statuses_rx_state_") or {})
    assert statuses(db, uid) == {slugs[0]: "paused"}
    replay.known_as_nobody()  # the kept events run for a guest: its browser's library takes both
    replay.wait_for(lambda: all(slug in replay.delta(LIBRARY).get("follows_json_rx_state_", "") for slug in slugs[:2]))
    assert nothing_of(replay, uid) and statuses(db, uid) == {slugs[0]: "paused"}
    replay.close()


def test_unknown_statuses_and_series_get_a_japanese_notice_and_change_nothing(base_url, victim, db, slugs):
    tab, _token, uid = victim
    bad = ["done", "", "読了", "x" * 100_000, 7, None, ["want"], {"status": "want"}]
    for status in bad:
        tab.send(f"{LISTS}.set_status", slug=slugs[0], status=status)
    for slug in ("no-such-series", "../../etc", 12, None):
        tab.send(f"{LISTS}.set_status", slug=slug, status="want")
    tab.wait_for(lambda: sum("状態を変更できませんでした" in notice for notice in tab.notices()) >= len(bad) + 4)
    assert "An error occurred" not in json.dumps(tab.updates, ensure_ascii=False)  # no handler failed
    assert statuses(db, uid) == {slugs[0]: "reading"}
    assert httpx.get(f"{base_url}/ping", timeout=10).status_code == 200


def test_the_same_tab_reconnecting_with_its_id_token_gets_its_account_back(base_url, victim):
    tab, token, uid = victim
    tab.close()
    again = Tab(base_url, token=tab.token)
    again.hydrate()
    sign_in(again, token)
    again.wait_for(lambda: signed_in_as(again, uid))
    again.close()


def test_the_readers_backend_helpers_are_not_events_and_a_made_up_opening_records_nothing(base_url, slugs):
    tab = Tab(base_url)
    tab.hydrate()
    entry = {"slug": slugs[0], "title": "偽", "cover": "", "chapter": "1", "chapter_title": "", "page": 3,
             "offset": 0.0, "read_at": "2026-11-28T00:00:00Z"}
    tab.send(f"{READING}.save", entries=[entry])
    tab.send(f"{READING}.entries")
    tab.send(f"{READER}.record_opening", view_id=0)  # a tab that opened no chapter
    tab.send(f"{READER}.record_opening", view_id=1)
    tab.settled()
    time.sleep(1.0)  # record_opening runs in the background: give it the time it took before the fix
    assert tab.delta(READING).get("history_json_rx_state_") in ("", None, "[]"), tab.delta(READING)
    assert not tab.delta(READER).get("visitor_id_rx_state_")  # nothing was counted either
    tab.close()


NOT_LIKED = "いいねできませんでした"


def test_like_events_for_unknown_or_malformed_chapters_get_a_japanese_notice(base_url, slugs, db, server_env):
    tab = Tab(base_url)
    tab.hydrate()
    tab.send(f"{AUTH}.on_auth_change", user=None, token="")  # a visitor who is not signed in
    before = _log_lines(server_env)
    cases = [
        {"slug": "no-such-series", "number": "1"},
        {"slug": slugs[0], "number": "99999"},
        {"slug": slugs[0], "number": "1e309"},
        {"slug": "../" + slugs[0], "number": "1"},
        {"slug": 12, "number": None},
        {"slug": ["a"], "number": {"n": 1}},
        {"slug": "s" * 100_000, "number": "1"},
        # The like asked for is a state (true, or false to take it back), nothing else.
        {"slug": slugs[0], "number": "1", "liked": "yes"},
        {"slug": slugs[0], "number": "1", "liked": 1},
        {"slug": slugs[0], "number": "1", "liked": None},
        {"slug": slugs[0], "number": "1", "liked": {"x": [1]}},
    ]
    for payload in cases:
        tab.send(f"{END_CARD}.set_like", **payload)
    tab.wait_for(lambda: sum(NOT_LIKED in notice for notice in tab.notices()) == len(cases))
    for following in ("yes", 1, None, ["x"]):
        tab.send(f"{LIBRARY}.set_follow", slug=slugs[0], following=following)
    tab.wait_for(lambda: sum("この作品は見つかりませんでした" in notice for notice in tab.notices()) == 4)
    assert tab.delta(LIBRARY).get("followed_rx_state_") in (None, [])
    tab.send(f"{END_CARD}.set_like", slug=slugs[0])  # arguments missing
    tab.send(f"{END_CARD}.reached_end", slug=None, number=None)
    tab.settled()
    assert chapter_likes(db, slugs[0], 100) == (0, 0)
    added = "\n".join(_log_lines(server_env)[len(before):])
    assert "Traceback" not in added, added[:2000]
    assert httpx.get(f"{base_url}/", timeout=10).status_code == 200
    tab.close()


def test_a_like_from_a_socket_that_is_not_the_accounts_is_refused(base_url, victim, db, slugs):
    tab, _token, _uid = victim
    tab.send(f"{END_CARD}.set_like", slug=slugs[0], number="1", liked=True)
    tab.wait_for(lambda: chapter_likes(db, slugs[0], 100) == (1, 1))
    tab.close()
    # The victim's client token replayed on another connection: its session is
    # suspended before the event, and the like is refused, not taken back.
    replay = Tab(base_url, token=tab.token)
    replay.hydrate()
    replay.send(f"{END_CARD}.set_like", slug=slugs[0], number="1", liked=False)
    replay.settled()
    assert chapter_likes(db, slugs[0], 100) == (1, 1)
    replay.known_as_nobody()  # the kept event runs for a guest, who had no like to take back
    replay.wait_for(lambda: replay.delta(END_CARD).get("like_key_rx_state_") == f"{slugs[0]}/1")
    assert chapter_likes(db, slugs[0], 100) == (1, 1)
    assert replay.delta(END_CARD).get("liked_rx_state_") in (None, False)
    replay.close()


def _key_url(tab: Tab) -> str:
    return tab.delta(OPDS_KEY).get("url_rx_state_") or ""


def test_a_personal_opds_url_leaves_the_tab_with_its_session(base_url, victim):
    tab, token, uid = victim
    tab.send(f"{OPDS_KEY}.create")
    url = tab.wait_for(lambda: _key_url(tab))
    assert "/opds/k/" in url
    # The tab's token replayed on another connection: its first update has no URL.
    tab.close()
    replay = Tab(base_url, token=tab.token)
    replay.hydrate()
    assert url not in json.dumps(replay.updates) and _key_url(replay) == ""
    replay.close()
    # The same tab signs in again, shows a fresh key, signs out; a guest then signs in on it.
    again = Tab(base_url, token=tab.token)
    again.hydrate()
    sign_in(again, token)
    again.wait_for(lambda: signed_in_as(again, uid))
    again.send(f"{OPDS_KEY}.create")
    second = again.wait_for(lambda: _key_url(again) if _key_url(again) not in ("", url) else None)
    seen = len(again.updates)
    again.send(f"{AUTH}.on_auth_change", user=None, token="")
    guest = anonymous_token()
    sign_in(again, guest)
    again.wait_for(lambda: signed_in_as(again, claims_of(guest)["user_id"]))
    assert second not in json.dumps(again.updates[seen:]) and _key_url(again) == ""
    again.close()


def test_notification_and_feed_key_events_from_a_socket_that_is_not_the_accounts_are_refused(base_url, victim, db, slugs):
    tab, _token, uid = victim
    # The account's own socket: its feed key is made and revoked.
    tab.send(f"{FEED_KEY}.create")
    tab.wait_for(lambda: "/feeds/k/" in (tab.delta(FEED_KEY).get("url_rx_state_") or ""))
    assert feed_keys(db, uid) == 1
    tab.send(f"{FEED_KEY}.revoke")
    tab.wait_for(lambda: feed_keys(db, uid) == 0)
    tab.close()
    # Its client token replayed on another socket: every new event is refused.
    replay = Tab(base_url, token=tab.token)
    replay.hydrate()
    replay.send(f"{NOTIFICATION}.load")
    replay.send(f"{NOTIFICATION}.published", slugs=[slugs[0]])
    replay.send(f"{FEED_KEY}.create")
    replay.wait_for(lambda: any("ログインしてください" in notice for notice in replay.notices()))
    replay.settled()
    notes = replay.delta(NOTIFICATION)
    assert not notes.get("items_rx_state_") and notes.get("count_rx_state_") in (None, 0), notes
    assert "/feeds/k/" not in json.dumps(replay.updates)
    assert feed_keys(db, uid) == 0 and seen_mark(db, uid) is None
    assert nothing_of(replay, uid, (slugs[0],))
    replay.close()


def test_a_malformed_publish_notice_is_refused_in_japanese(base_url):
    tab = Tab(base_url)
    tab.hydrate()
    for payload in ("neko", [1, 2], ["neko"] * 1001, None, {"slug": "neko"}):
        tab.send(f"{NOTIFICATION}.published", slugs=payload)
    tab.wait_for(lambda: sum("通知を受け取れませんでした" in notice for notice in tab.notices()) == 5)
    tab.close()


# --- floods and frames ---------------------------------------------------------


def test_a_flood_from_one_socket_is_dropped_with_one_notice_and_pages_still_answer(base_url, victim, db):
    _tab, _token, uid = victim
    flooder = Tab(base_url)
    flooder.hydrate()
    statuses: list[int] = []
    stop = threading.Event()

    def browse() -> None:
        with httpx.Client(timeout=10) as client:
            while not stop.is_set():
                statuses.append(client.get(f"{base_url}/").status_code)

    reader = threading.Thread(target=browse)
    reader.start()
    try:
        for _ in range(10_000):
            flooder.send(f"{AUTH}.on_error", code="flood")
        flooder.wait_for(lambda: any(TOO_MANY in notice for notice in flooder.notices()))
    finally:
        stop.set()
        reader.join()
    assert statuses and set(statuses) == {200}
    assert sum(TOO_MANY in notice for notice in flooder.notices()) == 1
    assert httpx.get(f"{base_url}/", timeout=10).status_code == 200
    assert follows(db, uid) != []
    flooder.close()
    # Once the flood is over its address is answered again: the frames still
    # on their way are dropped, and the address's bucket refills.
    assert _answered_again(base_url, within=60)


def _answered_again(base_url: str, *, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        tab = Tab(base_url)
        try:
            tab.hydrate()
            return True
        except AssertionError:
            time.sleep(1.0)
        finally:
            tab.close()
    return False


def test_an_oversized_frame_closes_the_connection_and_stays_out_of_the_log(base_url, victim, db, server_env, slugs):
    _tab, _token, uid = victim
    tab = Tab(base_url)
    tab.hydrate()
    tab.send(f"{AUTH}.on_error", code="y" * 1_200_000)
    tab.wait_for(lambda: not tab.client.connected)
    small = Tab(base_url)
    small.send(f"{AUTH}.on_persistence_error", message="z" * 900_000)  # under the frame limit: handled, logged cut
    time.sleep(1.0)
    assert httpx.get(f"{base_url}/", timeout=10).status_code == 200
    assert follows(db, uid) == [slugs[0]]
    log = (Path(server_env["DATA_DIR"]) / f"server-{PORT}.log").read_text(errors="replace")
    assert "y" * 201 not in log and "z" * 201 not in log
    small.close()


FRONTEND_EXCEPTION = "reflex___state____state.reflex___state____frontend_event_exception_state.handle_frontend_exception"


def _log_lines(server_env) -> list[str]:
    return (Path(server_env["DATA_DIR"]) / f"server-{PORT}.log").read_text(errors="replace").splitlines()


def test_client_text_and_malformed_frames_cost_the_log_a_bounded_line_and_forge_none(base_url, server_env):
    forged = "ERROR forged by a client"
    before = len(_log_lines(server_env))
    # One front-end "exception" of 53 KB with line breaks and an ANSI escape, sent 20 times.
    tab = Tab(base_url)
    tab.hydrate()
    for _ in range(20):
        tab.send(FRONTEND_EXCEPTION, info=("\x1b[2J" + "x" * 500 + "\n" + forged + "\n") * 100, component_stack="")
    tab.settled()
    # Malformed engine.io frames: the first closes the socket.
    frames = Tab(base_url)
    frames.hydrate()
    for _ in range(50):
        if not frames.client.connected:
            break
        try:
            frames.client.eio.ws.send("4" + "2/_event,[\"event\"," + "{" * 10)
        except (OSError, websocket.WebSocketConnectionClosedException):  # closed by the server before the client noticed it
            break
    frames.wait_for(lambda: not frames.client.connected)
    for _ in range(20):
        httpx.get(f"{base_url}//", timeout=10)
    assert httpx.get(f"{base_url}/", timeout=10).status_code == 200
    time.sleep(1.0)  # the server's log handler writes asynchronously
    added = _log_lines(server_env)[before:]
    assert not any(line.lstrip().startswith(forged) for line in added), added[:20]
    assert "\x1b" not in "\n".join(added)
    assert max(map(len, added), default=0) < 600, max(added, key=len)[:300]
    # A handful of lines for the lot, not one or more per event, frame or request.
    assert len(added) <= 15, "\n".join(line[:200] for line in added[:80])


# --- HTTP ---------------------------------------------------------------------


def test_a_foreign_origin_gets_neither_the_websocket_nor_cors(base_url):
    with pytest.raises(socketio.exceptions.ConnectionError):
        Tab(base_url, origin="http://evil.example")
    response = httpx.get(f"{base_url}/genres.json", headers={"Origin": "http://evil.example"}, timeout=10)
    assert response.status_code == 200 and "access-control-allow-origin" not in response.headers
    own = httpx.get(f"{base_url}/genres.json", headers={"Origin": base_url}, timeout=10)
    assert own.headers["access-control-allow-origin"] == base_url
    Tab(base_url).close()  # the site's own origin still connects


def test_headers_on_html_json_and_media_and_hsts_on_the_production_host(base_url):
    cover = httpx.get(f"{base_url}/mangas_1.json", timeout=10).json()["list"][0]["cover"]
    media = cover if cover.startswith("http") else f"{base_url}{cover}"
    for url in (f"{base_url}/", f"{base_url}/genres.json", media):
        response = httpx.get(url, timeout=10)
        assert response.status_code == 200, url
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert "strict-transport-security" not in response.headers
        production = httpx.get(url.replace("localhost", "127.0.0.1"), headers={"Host": f"{PRODUCTION_HOST}:{PORT}"}, timeout=10)
        assert production.headers["strict-transport-security"].startswith("max-age="), url


def test_a_client_sending_its_headers_slowly_is_let_go_and_others_are_served(base_url):
    host, port = "127.0.0.1", int(base_url.rsplit(":", 1)[1])
    slow = socket.create_connection((host, port), timeout=10)
    slow.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")  # and never the end of its headers
    slow.settimeout(HEADER_TIMEOUT * 6)
    assert httpx.get(f"{base_url}/", timeout=10).status_code == 200
    assert slow.recv(1024) == b""  # closed by the server, without an answer
    slow.close()


def test_a_genre_named_at_length_keeps_the_genre_list_within_a_phone_screen(base_url, server_env, tmp_path, page):
    genre = "Genre" * 81  # 405 characters and no place to break a line
    folder = tmp_path / "comics" / "長い名前"
    folder.mkdir(parents=True)
    with zipfile.ZipFile(folder / "長い名前 第1話.cbz", "w") as archive:
        archive.writestr("ComicInfo.xml", f"<ComicInfo><Number>1</Number><Genre>{genre}, 日常</Genre></ComicInfo>")
        image = io.BytesIO()
        Image.new("RGB", (600, 900), (40, 90, 160)).save(image, "PNG")
        archive.writestr("001.png", image.getvalue())
    imported = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "manga_app.catalogue", "import", str(tmp_path / "comics")],
                              cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=300)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    deadline = time.monotonic() + 30
    # Published, then held by the server (its next look at the published files):
    # the server's own genre list names it.
    while genre not in httpx.get(f"{base_url}/genres", timeout=10).text:
        assert time.monotonic() < deadline, "the genre never reached the site's genre list"
        time.sleep(0.5)
    page.goto(f"{base_url}/genres")
    chip = page.locator("a.chip", has_text="GenreGenreGenre").first
    chip.wait_for()
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    box = chip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= widths[1], box


def test_internal_paths_answer_404_and_built_assets_are_served(base_url):
    for path in ("/assets/", "/assets/no-such-file.js", "/_upload", "/_all_routes"):
        assert httpx.get(f"{base_url}{path}", timeout=10).status_code == 404, path
    html = httpx.get(f"{base_url}/", timeout=10).text
    asset = re.search(r'(/assets/[^"\']+\.js)', html).group(1)
    assert httpx.get(f"{base_url}{asset}", timeout=10).status_code == 200
