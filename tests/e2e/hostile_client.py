"""A socket.io client that speaks Reflex's event protocol as the browser's
state.js does (path /_event, websocket only, the tab's client token in the
query, events as {name, payload, router_data}), for the hostile-client tests."""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Callable

import socketio

ROOT = "reflex___state____state"
AUTH = f"{ROOT}.manga_app___visitor___auth_state____auth_state"
LIBRARY = f"{ROOT}.manga_app___visitor___library_state____library_state"
READER = f"{ROOT}.manga_app___reader___state____reader_state"
OPDS_KEY = f"{ROOT}.manga_app___visitor___personal_key_state____opds_key_state"
ACCOUNT_DATA = f"{ROOT}.manga_app___visitor___data_state____account_data_state"
READING = f"{ROOT}.manga_app___visitor___reading_state____reading_state"
OPERATOR = f"{ROOT}.manga_app___visitor___operator_state____operator_state"
CONSOLE_SERIES = f"{ROOT}.manga_app___console___series_state____series_editor_state"
CONSOLE_OVERVIEW = f"{ROOT}.manga_app___console___overview_state____overview_state"
CONSOLE_AUDIT = f"{ROOT}.manga_app___console___audit_state____audit_state"
CONSOLE_JOBS = f"{ROOT}.manga_app___console___jobs_state____jobs_state"
CONSOLE_UPLOAD = f"{ROOT}.manga_app___console___upload_state____upload_state"
LISTS = f"{ROOT}.manga_app___visitor___lists_state____lists_state"
NOTIFICATION = f"{ROOT}.manga_app___visitor___notification_state____notification_state"
FEED_KEY = f"{ROOT}.manga_app___visitor___personal_key_state____feed_key_state"
END_CARD = f"{ROOT}.manga_app___reader___end_state____end_card_state"
# state.js connects io("<origin>/_event", {path: "/_event"}): the socket.io
# path and Reflex's namespace are both /_event.
NAMESPACE = "/_event"


class Tab:
    """One browser tab's connection (a new client token unless one is replayed)."""

    def __init__(self, base_url: str, *, token: str | None = None, origin: str | None = None) -> None:
        self.token = token or str(uuid.uuid4())
        self.updates: list[dict] = []
        # websocket-client sends the Origin it is given (else the URL's), as a browser does.
        self.client = socketio.Client(reconnection=False, websocket_extra_options={"origin": origin or base_url})
        self.client.on("event", self.updates.append, namespace=NAMESPACE)
        # The server listens on 127.0.0.1 (localhost may resolve to ::1 first).
        self.client.connect(
            f"{base_url.replace('//localhost:', '//127.0.0.1:')}/?token={self.token}",
            socketio_path="/_event",
            namespaces=[NAMESPACE],
            transports=["websocket"],
            wait_timeout=10,
        )

    def send(self, name: str, **payload) -> None:
        self.client.emit("event", {"name": name, "payload": payload, "router_data": {"pathname": "/", "asPath": "/"}},
                         namespace=NAMESPACE)

    def hydrate(self) -> dict:
        """The full state the server sends a (re)connecting tab."""
        self.send(f"{ROOT}.hydrate")
        return self.wait_for(lambda: self.delta(AUTH) and "loading_rx_state_" in self.delta(AUTH))

    def settled(self) -> dict:
        """The full state after every event sent before: events of one tab are
        processed in order, so the answer to a hydrate sent now comes after theirs."""
        seen = len(self.updates)
        self.send(f"{ROOT}.hydrate")
        self.wait_for(lambda: any(AUTH in (update.get("delta") or {}) for update in self.updates[seen:]))
        return self.delta(READING) | self.delta(AUTH)

    def delta(self, state: str) -> dict:
        """Every value of `state` the server sent, the newest winning."""
        merged: dict = {}
        for update in self.updates:
            merged.update((update.get("delta") or {}).get(state) or {})
        return merged

    def notices(self) -> list[str]:
        """The notifications the server asked this tab to show (the notify client command, ui/notify.py)."""
        commands = [(event.get("payload") or {}).get("value") for update in self.updates
                    for event in update.get("events") or [] if event.get("name") == "_set_value"]
        return [json.dumps(command[1:], ensure_ascii=False) for command in commands
                if isinstance(command, list) and command[:1] == ["notify"]]

    def known_as_nobody(self) -> None:
        """The tab's Firebase client reports nobody signed in (it has no ID
        token); the events the server kept while it did not know run next,
        queued once it has answered (loading over). Not settled() after:
        its hydrate resets the browser-storage values (a tab sends its own
        with it), and a kept event may run before or after it."""
        seen = len(self.updates)
        self.send(f"{AUTH}.on_auth_change", user=None, token="")
        self.wait_for(lambda: any(((update.get("delta") or {}).get(AUTH) or {}).get("loading_rx_state_") is False
                                  for update in self.updates[seen:]))

    def wait_for(self, predicate: Callable[[], object], timeout: float = 15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = predicate()
            if found:
                return found
            time.sleep(0.05)
        raise AssertionError(f"nothing arrived within {timeout}s; updates: {json.dumps(self.updates)[:1500]}")

    def close(self) -> None:
        self.client.disconnect()


def follows(db_url: str, uid: str) -> list[str]:
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        return [row[0] for row in db.execute("select series_slug from follow where uid = ? order by series_slug", (uid,))]


def statuses(db_url: str, uid: str) -> dict[str, str]:
    """The account's reading-list statuses, by series."""
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        return dict(db.execute("select series_slug, status from follow where uid = ?", (uid,)))


def account_exists(db_url: str, uid: str) -> bool:
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        return db.execute("select 1 from user_account where uid = ?", (uid,)).fetchone() is not None


def feed_keys(db_url: str, uid: str) -> int:
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        return db.execute("select count(*) from feed_key where uid = ?", (uid,)).fetchone()[0]


def seen_mark(db_url: str, uid: str):
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        return db.execute("select notifications_seen_at from user_account where uid = ?", (uid,)).fetchone()[0]

def chapter_likes(db_url: str, slug: str, hundredths: int) -> tuple[int, int]:
    """(the chapter's like count, its like rows)."""
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:
        return db.execute(
            "select coalesce((select likes from chapter_like_count where chapter_id = chapter.id), 0), "
            "(select count(*) from chapter_like where chapter_id = chapter.id) "
            "from chapter join series on series.id = chapter.series_id where series.slug = ? and chapter.number_hundredths = ?",
            (slug, hundredths),
        ).fetchone()
