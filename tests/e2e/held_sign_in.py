"""Who the visitor is, held back from the server: the page's report of who
is signed in (the Firebase root's chain: AuthState.on_auth_change,
LibraryState.sync, OperatorState.follow) does not reach the server until
`release`, so the page works but the server cannot tell yet who is there,
as on a slow phone before the sign-in script has run."""

from __future__ import annotations

import re

from playwright.sync_api import Page

REPORT = re.compile(r'auth_state\.on_auth_change"|library_state\.sync"|operator_state\.follow"')


class HeldSignIn:
    def __init__(self, page: Page) -> None:
        self.held: list[tuple[object, str | bytes]] = []
        self.released = False
        page.route_web_socket(re.compile(r"/_event"), self._route)

    def _route(self, socket) -> None:
        server = socket.connect_to_server()
        socket.on_message(lambda message: self._pass(server, message))

    def _pass(self, server, message) -> None:
        if not self.released and REPORT.search(str(message)):
            self.held.append((server, message))
        else:
            server.send(message)

    def release(self) -> None:
        assert self.held, "the page never reported who is signed in"
        self.released = True
        for server, message in self.held:
            server.send(message)
