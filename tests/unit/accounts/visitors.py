"""Visitors for the state tests: a small real catalogue (SQLite, published by
the real publisher, served over loopback HTTP and held like the server holds
it), and browsers whose Reflex state tree calls the real handlers with
tokens from the real Auth emulator.

A `Browser` is one tab: its root State holds AuthState, LibraryState and
ReadingState as Reflex would; `storage()` and `Browser(storage=...)` carry its
localStorage values over to the next visit, as the real browser would."""

from __future__ import annotations

from dataclasses import dataclass

import reflex as rx
from reflex.event import Event
from reflex.state import State

from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.library_state import LibraryState
from manga_app.visitor.reading_state import ReadingState
from tests.unit.accounts.emulator_accounts import claims_of

# slug -> chapters (hundredths -> title)
CATALOGUE = {
    "alpha": {100: "はじまり", 200: "つづき", 300: "おわり"},
    "beta": {100: "", 200: "", 1050: "番外"},
    "gamma": {100: ""},
}
# Pages in every chapter of CATALOGUE: page index 7 is the last.
PAGES = 8


def user_of(token: str, **changes) -> dict:
    """The user object the browser client sends with a token (client.jsx toUser)."""
    claims = claims_of(token)
    provider = claims.get("firebase", {}).get("sign_in_provider")
    user = {"googleId": claims["user_id"], "email": claims.get("email", ""), "name": claims.get("name", ""),
            "avatar": claims.get("picture", ""), "isAnonymous": provider == "anonymous"}
    return {**user, **changes}


def commands(result: object) -> list[list]:
    """The client commands (visitor/client_commands.py) a handler's returned events send: [name, *args]."""
    specs = result if isinstance(result, list) else [result] if result is not None else []
    found = []
    for spec in specs:
        args = {name._js_expr: value._var_value for name, value in getattr(spec, "args", ())}
        if args.get("ref") == "ref_manga_command":
            found.append(list(args["value"]))
    return found


def returned_events(result: object) -> list[Event]:
    """The events (handler and payload) a handler's answer has the client send back."""
    return [item for item in (result if isinstance(result, list) else [result]) if isinstance(item, Event)]


def messages(result: object) -> list[str]:
    """The notifications a handler's returned events would show: "kind: message"."""
    return [f"{kind}: {message} {description}".strip() for name, kind, message, description in
            (command for command in commands(result) if command[0] == "notify")]


@dataclass
class Storage:
    """A browser's localStorage, as far as these states use it."""

    history_json: str = ""
    follows_json: str = ""
    owner: str = ""


class Browser:
    def __init__(self, storage: Storage | None = None) -> None:
        self.root = State()
        self.auth: AuthState = self.root.get_substate(AuthState.get_full_name().split("."))
        self.library: LibraryState = self.root.get_substate(LibraryState.get_full_name().split("."))
        self.reading: ReadingState = self.root.get_substate(ReadingState.get_full_name().split("."))
        storage = storage or Storage()
        self.reading.history_json = storage.history_json
        self.library.follows_json, self.library.owner = storage.follows_json, storage.owner

    def connect(self, sid: str) -> None:
        """The tab's socket.io connection is now `sid` (as Reflex records it before each event)."""
        self.root.router_data = self.root._update_router_vars({"sid": sid}, self.root.router_data)

    def visit(self, path: str) -> None:
        """The tab shows `path` (the router data its events carry from then on)."""
        self.root.router_data = self.root._update_router_vars({"pathname": path, "asPath": path}, self.root.router_data)

    def storage(self) -> Storage:
        return Storage(self.reading.history_json, self.library.follows_json, self.library.owner)

    # The Firebase root's event chains (ui/account/root.py).

    async def report(self, user: dict | None, token: str) -> list[str]:
        answer = await self.auth.on_auth_change(user, token)
        notes = messages(answer) + messages(await self.library.sync(user, token))
        for event in returned_events(answer):
            notes += messages(await self.send(event))
        return notes

    async def send(self, event: Event) -> object:
        """An event a handler returned, run next on this tree as Reflex's event
        processor does (with the router data it carries, if any)."""
        if event.router_data:
            self.root.router_data = self.root._update_router_vars(event.router_data, self.root.router_data)
        path, _, handler = event.name.rpartition(".")
        return await getattr(self.root.get_substate(path.split(".")), handler)(**event.payload)

    async def sign_in(self, token: str) -> list[str]:
        return await self.report(user_of(token), token)

    async def sign_out(self) -> list[str]:
        return await self.report(None, "")

    async def refresh(self, token: str) -> rx.event.EventSpec | list | None:
        result = await self.auth.on_token(token)
        await self.library.sync(token)
        return result

    def history(self) -> list[tuple[str, str, int]]:
        """(slug, chapter, page) of the browser's history, newest first."""
        return [(entry.slug, entry.chapter, entry.page) for entry in self.reading._entries()]
