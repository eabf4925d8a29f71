"""Whether this tab's visitor is an operator, for the console's view only:
`operator` turns the console on in the browser. It is set from the backend's
own record of the verified token (AuthState._operator_session), followed
after every auth report (ui/account/root.py) and cleared with a suspended
session (session_guard.py). Every console event checks the role again on
the server with `operator_of`; nothing the browser sends is believed."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import reflex as rx
from reflex.event import EventSpec

from manga_app.visitor.auth_state import AuthState, visitor_uid

logger = logging.getLogger(__name__)


# The console's states (registered by `console_state`): what they hold is
# the operator's alone, forgotten with the operator's session.
_CONSOLE_STATES: list[type[rx.State]] = []


def console_state(cls: type[rx.State]) -> type[rx.State]:
    """A class decorator for every state of the console."""
    _CONSOLE_STATES.append(cls)
    return cls


async def forget_console(state: rx.State) -> None:
    """Every console state back to its defaults (a signed-out, switched or
    suspended session): nothing of the console stays in the tab's state."""
    for cls in (OperatorState, *_CONSOLE_STATES):
        (await state.get_state(cls)).reset()


@dataclass(frozen=True)
class Operator:
    uid: str
    email: str


async def operator_of(state: rx.State, *, retry: EventSpec | None = None) -> Operator | None:
    """The operator this tab's connection proved to be, else None (logged).
    `retry`: a console page's load, run again once the visitor is known when
    it came before (the console showed from the tab's earlier state)."""
    auth = await state.get_state(AuthState)
    uid = auth._operator_session()
    if not uid:
        if retry is not None and auth.loading and auth._defer(retry):
            return None
        logger.warning("Refused a console event from %s", await visitor_uid(state) or "a visitor who is not signed in")
        return None
    return Operator(uid, auth.email)


class OperatorState(rx.State):
    operator: bool = False
    operator_email: str = ""

    @rx.event
    async def follow(self):
        """After each auth report: the console shows for an operator only,
        and whatever it held goes with anyone else."""
        auth = await self.get_state(AuthState)
        uid = auth._operator_session()
        if not uid or auth.email != self.operator_email:
            await forget_console(self)
        if uid:
            self.operator, self.operator_email = True, auth.email
