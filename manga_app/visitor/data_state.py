"""アカウントとデータ (`/account`): a signed-in reader (Google or guest)
downloads everything the site keeps about them as JSON, or deletes their
account: every row (accounts/own_data.py), then the sign-in account itself
(Firebase, through the admin API), then the browser signs out. The page says
what was deleted. Every event acts on AuthState._uid (a verified token) only;
a socket without a session is told to sign in and nothing happens."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import reflex as rx

from manga_app.accounts import own_data, service
from manga_app.visitor.auth_state import AuthState, BROWSER_SIGN_OUT, visitor_uid
from manga_app.accounts.settings import get_firebase_config
from manga_app.accounts.verify import delete_firebase_user
from manga_app.core.config import get_settings
from manga_app.visitor.notify import notify

SIGN_IN_FIRST = ("error", "ログインしてください", "データのダウンロードと削除は、ログインしたアカウントでできます。")
FILE_NAME = "manga-hiroba-data.json"
SIGN_IN_ACCOUNT = "ログイン情報（Googleまたはゲストのアカウント）"


class AccountDataState(rx.State):
    # After a deletion: what went, one line per kind (shown on the page).
    deleted: list[str] = []

    @rx.event
    def load(self):
        self.deleted = []

    @rx.event
    async def download(self):
        uid = await visitor_uid(self)
        if not uid:
            return notify(*SIGN_IN_FIRST)
        data = await asyncio.to_thread(service.export_account, uid)
        document = {
            "site": get_settings().origin,
            "exported_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "labels": own_data.LABELS,
            **data,
        }
        body = json.dumps(document, ensure_ascii=False, indent=2, default=str)
        return rx.download(data=body, filename=FILE_NAME, mime_type="application/json")

    @rx.event
    async def delete_account(self):
        auth = await self.get_state(AuthState)
        uid = await visitor_uid(self)
        if not uid:
            return notify(*SIGN_IN_FIRST)
        deleted = await asyncio.to_thread(service.delete_account, uid)
        gone = await asyncio.to_thread(delete_firebase_user, uid, config=get_firebase_config())
        auth._clear()
        self.deleted = own_data.described(deleted) + ([SIGN_IN_ACCOUNT] if gone else [])
        events = [BROWSER_SIGN_OUT, notify("success", "アカウントを削除しました")]
        if not gone:
            events.append(notify("error", "ログイン情報を削除できませんでした",
                                 "サイトに保存されたデータは削除しました。ログイン情報の削除は、もう一度ログインしてからお試しください。"))
        return events
