"""The visitor's reading history, kept in the browser (localStorage).

The reader records progress here; the title page shows read marks and
続きを読む from it; /history lists it. The format is manga_app/accounts/reading.py."""

import reflex as rx

from manga_app.core import browser
from manga_app.accounts import reading


class ReadingState(rx.State):
    # Synced across tabs; survives reloads. JSON of reading.HistoryEntry list.
    history_json: str = rx.LocalStorage("", name=browser.HISTORY_STORAGE_KEY, sync=True)

    # Underscored: helpers for other states, never events a client may send.
    def _entries(self) -> list[reading.HistoryEntry]:
        return reading.parse_history(self.history_json)

    def _save(self, entries: list[reading.HistoryEntry]) -> None:
        self.history_json = reading.dump_history(entries)
